/** Query keys of the campaigns feature; every key starts with 'campaigns' so one prefix invalidates them all. */
export const campaignKeys = {
  all: ['campaigns'] as const,
  mine: (advertiserId: string) => [...campaignKeys.all, 'mine', advertiserId] as const,
  detail: (campaignId: string) => [...campaignKeys.all, 'detail', campaignId] as const,
  revision: (campaignId: string) => [...campaignKeys.all, 'revision', campaignId] as const,
  espConnected: (campaignId: string) => [...campaignKeys.all, 'esp-connected', campaignId] as const,
  weekSubscribers: (campaignIds: string[]) => [...campaignKeys.all, 'week-subscribers', ...campaignIds] as const,
}
