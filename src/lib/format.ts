/** Credits (1 credit = 1 US dollar) arrive as numeric: a number or, from some drivers, a string. */
export const toCredits = (value: number | string | null | undefined) => {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0)
  return Number.isFinite(n) ? n : 0
}

// Made on first use: the first Intl formatter of a page costs tens of milliseconds of a phone's CPU (its
// locale data is loaded), which public pages that import this module for `formatCount` never pay.
let credits: Intl.NumberFormat | undefined
const creditsFormatter = () =>
  (credits ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }))

export const formatCredits = (value: number | string | null | undefined) =>
  `${creditsFormatter().format(toCredits(value))} credits`

/**
 * A whole number the way `toLocaleString('en-US')` writes it (12,345), without Intl: the public lists show
 * their counts while the page hydrates, where the first Intl call was the single longest task.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US')
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',')
  return value < 0 ? `-${digits}` : digits
}

// Made once, on first use, like the credits formatter: a table of 50 rows built one per cell, and building an
// Intl.DateTimeFormat costs far more than formatting with it (a tenth of a millisecond each; in the SPA tests,
// 0.8 CPU-seconds of the unit project went to making them).
let dateTime: Intl.DateTimeFormat | undefined
export const formatDateTime = (iso: string) =>
  (dateTime ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })).format(new Date(iso))

let updatedAt: Intl.DateTimeFormat | undefined
/** When the click figures were last brought up to date (figures_updated_at), as the dashboards say it: "Updated 14:05". */
export const formatUpdatedAt = (iso: string) =>
  `Updated ${(updatedAt ??= new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false })).format(new Date(iso))}`
