/**
 * Previous / next over a server-paginated list, saying where the reader is: "Page 2 of 3" when the total is
 * counted, or "Users 21–40" for lists that only know whether more rows exist (`hasMore`).
 */
import { Button } from '@/components/ui/button'

type PagerProps = {
  page: number
  pageSize: number
  onPageChange: (page: number) => void
  label: string
} & ({ total: number } | { hasMore: boolean; shown: number; itemsLabel: string })

export function Pager(props: PagerProps) {
  const { page, pageSize, onPageChange, label } = props
  let position: string
  let more: boolean
  if ('total' in props) {
    const pages = Math.max(1, Math.ceil(props.total / pageSize))
    position = `Page ${Math.min(page + 1, pages)} of ${pages}`
    more = page + 1 < pages
  } else {
    position = `${props.itemsLabel} ${page * pageSize + 1}–${page * pageSize + props.shown}`
    more = props.hasMore
  }
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 pt-3 text-sm">
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite" className="tabular-nums">
        {position}
      </span>
      <Button variant="outline" size="sm" disabled={!more} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  )
}
