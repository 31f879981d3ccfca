/**
 * Categories offered by the directory's filter. Sources store a free-text category, so the filter matches it
 * case-insensitively; a fixed list keeps the page from scanning every source to find the distinct values.
 */
export const SOURCE_CATEGORIES = [
  'technology',
  'business',
  'finance',
  'marketing',
  'design',
  'productivity',
  'health',
  'lifestyle',
  'education',
  'entertainment',
  'news',
  'science',
  'sports',
  'travel',
  'food',
] as const
