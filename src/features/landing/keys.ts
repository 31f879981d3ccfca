/** Query keys of the landing page's small reads. */
export const landingKeys = {
  all: ['landing'] as const,
  verifiedSources: (limit: number) => [...landingKeys.all, 'verified-sources', limit] as const,
  activeNewsletters: (limit: number) => [...landingKeys.all, 'active-newsletters', limit] as const,
}
