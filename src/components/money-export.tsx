/**
 * The "Export CSV" button of an admin Money table, with what the last export did (or why it failed) beside it, and
 * what a page past the end of such a table says.
 */
import { Download } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { formatCount } from '@/lib/format'
import type { UseMutationResult } from '@tanstack/react-query'
import { MONEY_EXPORT_LIMIT, type MoneyExportResult, type MoneyFilters } from '@/lib/money-filters'

export function exportOutcome({ fileName, exported, total }: MoneyExportResult): string {
  const rows = (n: number) => `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`
  if (total > exported)
    return `Exported the first ${rows(exported)} of ${formatCount(total)} to ${fileName}: an export holds at most ${formatCount(MONEY_EXPORT_LIMIT)} rows, so narrow the filters to export the rest.`
  return `Exported ${rows(exported)} to ${fileName}.`
}

export function MoneyExportButton({
  exporter,
  filters,
  label,
}: {
  /** The table's export mutation: it takes the current filters and says what it wrote. */
  exporter: UseMutationResult<MoneyExportResult, Error, MoneyFilters>
  filters: MoneyFilters
  /** Names what is exported for screen readers, e.g. "Export transactions as CSV". */
  label: string
}) {
  return (
    <div className="flex flex-col items-start gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <Button
        type="button"
        size="sm"
        variant="outline"
        aria-label={label}
        disabled={exporter.isPending}
        onClick={() => exporter.mutate(filters)}
      >
        <Download className="size-4" aria-hidden="true" />
        {exporter.isPending ? 'Exporting…' : 'Export CSV'}
      </Button>
      {exporter.isSuccess && (
        <p role="status" className="text-sm text-muted-foreground">
          {exportOutcome(exporter.data)}
        </p>
      )}
      {exporter.isError && (
        <p role="alert" className="text-sm text-destructive">
          Could not export: {exporter.error.message}
        </p>
      )}
    </div>
  )
}

/** A linked page beyond the last one (the list got shorter): say so, rather than "nothing yet". */
export function PastTheEnd({ onFirstPage }: { onFirstPage: () => void }) {
  return (
    <p className="text-muted-foreground">
      This page is past the end of the list.{' '}
      <Button type="button" variant="link" className="h-auto p-0" onClick={onFirstPage}>
        Go to the first page
      </Button>
    </p>
  )
}
