/** Query keys of the analytics feature; every key starts with 'analytics'. */
import type { DateRange } from '@/lib/date-range'

export const analyticsKeys = {
  all: ['analytics'] as const,
  sourceFigures: (campaignId: string, range: DateRange) =>
    [...analyticsKeys.all, 'source-figures', campaignId, range] as const,
  totals: (campaignId: string, range: DateRange) => [...analyticsKeys.all, 'totals', campaignId, range] as const,
  daily: (campaignId: string, range: DateRange) => [...analyticsKeys.all, 'daily', campaignId, range] as const,
  notCounted: (campaignId: string, range: DateRange) =>
    [...analyticsKeys.all, 'not-counted', campaignId, range] as const,
  defaultCampaign: (userId: string) => [...analyticsKeys.all, 'default-campaign', userId] as const,
  /** A publisher's figures per source and newsletter, and this week's totals. */
  publisherStats: (userId: string, range: DateRange) =>
    [...analyticsKeys.all, 'publisher', userId, 'stats', range] as const,
  publisherDaily: (userId: string, range: DateRange) =>
    [...analyticsKeys.all, 'publisher', userId, 'daily', range] as const,
  publisherWeek: (userId: string) => [...analyticsKeys.all, 'publisher', userId, 'week'] as const,
}
