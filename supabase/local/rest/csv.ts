/** `Accept: text/csv`: PostgREST's CSV body, a header row then one line per row, quoted where needed. */
export function toCsv(jsonArray: string): string {
  const rows = JSON.parse(jsonArray) as Record<string, unknown>[]
  if (rows.length === 0) return ''
  const keys = Object.keys(rows[0])
  const cell = (v: unknown) => {
    if (v === null || v === undefined) return ''
    const s = typeof v === 'object' ? JSON.stringify(v) : String(v)
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  }
  return [keys.join(','), ...rows.map((r) => keys.map((k) => cell(r[k])).join(','))].join('\n')
}
