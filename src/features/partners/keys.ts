/** Query keys of the advertiser's partner programs; every key starts with 'partners'. */
export const partnerKeys = {
  all: ['partners'] as const,
  sources: (campaignId: string) => [...partnerKeys.all, 'sources', campaignId] as const,
}
