/** Counted and not-counted clicks per source, by reason (PRODUCT.md "Attribution": numbers anyone can explain). */
export type ClickBreakdown = { counted: number; notCounted: number; byReason: Record<string, number> }

export type SourceFigureRow = {
  source_id: string
  counted_clicks: number | string
  not_counted_clicks: number | string
}
export type SourceReasonRow = { source_id: string; kind: string; label: string; total: number | string }

export const emptyBreakdown = (): ClickBreakdown => ({ counted: 0, notCounted: 0, byReason: {} })

/**
 * Puts the database's totals (source_figures, source_not_counted) side by side per source; nothing is
 * counted here. Reasons are keyed by the database's label (one vocabulary, in not_counted_reasons).
 */
export function breakdownBySource(
  figures: readonly SourceFigureRow[],
  reasons: readonly SourceReasonRow[],
): Map<string, ClickBreakdown> {
  const result = new Map<string, ClickBreakdown>()
  for (const row of figures) {
    result.set(row.source_id, {
      counted: Number(row.counted_clicks),
      notCounted: Number(row.not_counted_clicks),
      byReason: {},
    })
  }
  for (const row of reasons) {
    if (row.kind !== 'click') continue
    const entry = result.get(row.source_id) ?? emptyBreakdown()
    entry.byReason[row.label] = Number(row.total)
    result.set(row.source_id, entry)
  }
  return result
}
