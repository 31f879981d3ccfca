/** SPEC §7: page view, category filter and search tracking only write to the console. */
export const trackPageView = (page: string, details: Record<string, unknown> = {}) =>
  console.info('[tracking] page view', { page, ...details })

export const trackCategoryFilter = (category: string) => console.info('[tracking] category filter', { category })

export const trackSearch = (search: string) => console.info('[tracking] search', { search })
