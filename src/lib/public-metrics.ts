/**
 * The catalogue's figures a public page shows (src/lib/metrics.ts takes them in): a directory card imports these few
 * definitions instead of the whole catalogue (2 KB gzip of the /earn visit, ARCHITECTURE "Budgets").
 */
export const publicMetrics = {
  newsletterEngagedRate: {
    label: 'Engaged rate',
    definition:
      "Of the newsletter's readers from Growletter whose engagement window has closed and whose email tool answered, the % with a counted open or click; shown from 20 readers.",
    source: 'newsletter_engaged_rates.engaged_rate',
    screens: ['newsletter directory'],
  },
} as const
// Typed where src/lib/metrics.ts takes it in (its `define`), so this module imports nothing.
