/** Query keys of the public newsletter pages; every key starts with 'newsletters'. */
export type NewsletterFilters = { search: string; category: string }

export const newsletterKeys = {
  all: ['newsletters'] as const,
  list: (filters: NewsletterFilters) => [...newsletterKeys.all, 'list', filters] as const,
  detail: (id: string, preview: boolean) => [...newsletterKeys.all, 'detail', id, { preview }] as const,
  availability: (id: string) => [...newsletterKeys.all, 'availability', id] as const,
}
