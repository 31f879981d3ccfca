/** Credits (1 credit = 1 US dollar) arrive as numeric: a number or, from some drivers, a string. */
export const toCredits = (value: number | string | null | undefined) => {
  const n = typeof value === 'string' ? Number.parseFloat(value) : (value ?? 0)
  return Number.isFinite(n) ? n : 0
}

const formatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

export const formatCredits = (value: number | string | null | undefined) => `${formatter.format(toCredits(value))} credits`

export const formatDateTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
