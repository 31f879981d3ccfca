/** Click figures lag the clicks by at most a minute (drain-click-queue): every figure screen says when they were brought up to date. */
import { formatUpdatedAt } from '@/lib/format'

export function FiguresUpdated({
  at,
  testId = 'figures-updated',
}: {
  at: string | null | undefined
  /** Two on one screen (the campaign's totals and its per-source table) are told apart by their test id. */
  testId?: string
}) {
  if (!at) return null
  return (
    <p className="text-xs text-muted-foreground" data-testid={testId}>
      <time dateTime={at}>{formatUpdatedAt(at)}</time>
    </p>
  )
}
