/** Query keys of the audience directory; every key starts with 'audiences' so one prefix invalidates all. */
export type AudienceFilters = { search: string; category: string }

export const audienceKeys = {
  all: ['audiences'] as const,
  list: (filters: AudienceFilters) => [...audienceKeys.all, 'list', filters] as const,
  count: (filters: AudienceFilters) => [...audienceKeys.all, 'count', filters] as const,
}
