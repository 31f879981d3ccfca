/** Query keys of audience sources: the public directory and a publisher's own; every key starts with 'audiences'. */
/** newest (default), or by the 30-day quality figures: confirmation rate, share of clicks that counted. */
export type AudienceSort = 'newest' | 'confirmation' | 'counted'
export type AudienceFilters = { search: string; category: string; sort?: AudienceSort }

export const audienceKeys = {
  all: ['audiences'] as const,
  list: (filters: AudienceFilters) => [...audienceKeys.all, 'list', filters] as const,
  count: (filters: AudienceFilters) => [...audienceKeys.all, 'count', filters] as const,
  /** A publisher's own sources and their clicks. */
  owner: (userId: string) => [...audienceKeys.all, 'owner', userId] as const,
  ownSources: (userId: string) => [...audienceKeys.owner(userId), 'sources'] as const,
  ownClicks: (userId: string) => [...audienceKeys.owner(userId), 'clicks'] as const,
  ownRevisions: (userId: string) => [...audienceKeys.owner(userId), 'revisions'] as const,
  promotableCampaigns: () => [...audienceKeys.all, 'promotable-campaigns'] as const,
}
