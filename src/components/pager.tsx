/** Previous / next over a counted list; says where the reader is. */
import { Button } from '@/components/ui/button'

type PagerProps = { page: number; pageSize: number; total: number; onPageChange: (page: number) => void; label: string }

export function Pager({ page, pageSize, total, onPageChange, label }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize))
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 pt-3 text-sm">
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite">
        Page {Math.min(page + 1, pages)} of {pages}
      </span>
      <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  )
}
