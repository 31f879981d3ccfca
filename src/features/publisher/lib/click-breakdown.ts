/** Counted and not-counted clicks per source, by reason (PRODUCT.md "Attribution": numbers anyone can explain). */
// Reasons are labelled by src/lib/vocabulary.ts (reasonLabel), the same words on every screen.
export type ClickBreakdown = { counted: number; notCounted: number; byReason: Record<string, number> }

export type ClickRow = { audience_source_id: string; counted: boolean; not_counted_reason: string | null }

export const emptyBreakdown = (): ClickBreakdown => ({ counted: 0, notCounted: 0, byReason: {} })

export function breakdownBySource(rows: readonly ClickRow[]): Map<string, ClickBreakdown> {
  const result = new Map<string, ClickBreakdown>()
  for (const row of rows) {
    const entry = result.get(row.audience_source_id) ?? emptyBreakdown()
    if (row.counted) entry.counted += 1
    else {
      entry.notCounted += 1
      const reason = row.not_counted_reason ?? 'unknown'
      entry.byReason[reason] = (entry.byReason[reason] ?? 0) + 1
    }
    result.set(row.audience_source_id, entry)
  }
  return result
}
