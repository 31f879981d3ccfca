/** One figure in a card (label, value, optional hint), and how a figure reads while its query loads or fails. */
import type { ReactNode } from 'react'

export function Metric({
  label,
  value,
  hint,
  testId,
}: {
  label: string
  value: ReactNode
  hint?: string
  testId: string
}) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border bg-card p-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  )
}

export const metricValue = (query: { isPending: boolean; isError: boolean }, value: () => ReactNode) =>
  query.isPending ? '…' : query.isError ? '—' : value()
