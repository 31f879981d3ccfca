/** Click figures lag the clicks by at most a minute (drain-click-queue): every figure screen says when they were brought up to date. */
import { formatUpdatedAt } from '@/lib/format'

export function FiguresUpdated({ at }: { at: string | null | undefined }) {
  if (!at) return null
  return (
    <p className="text-xs text-muted-foreground" data-testid="figures-updated">
      <time dateTime={at}>{formatUpdatedAt(at)}</time>
    </p>
  )
}
