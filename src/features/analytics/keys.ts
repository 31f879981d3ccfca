/** Query keys of the analytics feature; every key starts with 'analytics'. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  sourceStats: (campaignId: string) => [...analyticsKeys.all, 'source-stats', campaignId] as const,
  activity: (campaignId: string, days: number) => [...analyticsKeys.all, 'activity', campaignId, days] as const,
}
