/** The audit log, page by page: every change of status traced to a person, a named subject and a reason. */
import { useState } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { AUDIT_LOG_PAGE_SIZE, useAuditLogQuery, type AuditEvent } from '../api/audit-log-query'
import { formatDateTime } from '@/lib/format'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { auditStatusLabel } from '@/lib/vocabulary'
import { humanise } from '@/lib/vocabulary-catalog'

const subjectLabel: Record<string, string> = {
  audience_source: 'Source',
  campaign: 'Newsletter',
  profile: 'User',
  subscription: 'Subscriber',
  payout_request: 'Payout',
  dispute: 'Dispute',
}

/**
 * What changed, truthfully: "Waiting for review → Rejected"; a decision that left the status as it was (a second
 * rejection, a note) reads "Rejected again", never "Rejected → Rejected"; a first status alone when there was none.
 */
export function auditChange(e: Pick<AuditEvent, 'subject_type' | 'old_status' | 'new_status'>): string {
  const label = (value: string) => auditStatusLabel(e.subject_type, value)
  if (!e.new_status) return e.old_status ? `${label(e.old_status)} → —` : '—'
  if (!e.old_status) return label(e.new_status)
  if (e.old_status === e.new_status) return `${label(e.new_status)} again`
  return `${label(e.old_status)} → ${label(e.new_status)}`
}
const col = dataTableColumns<AuditEvent>()
// The database orders the log (newest first, a page at a time); columns are not re-sorted within a page.
const columns = [
  col.accessor('created_at', {
    header: 'When',
    enableSorting: false,
    cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  col.accessor('actor_name', { header: 'Who', enableSorting: false }),
  col.accessor('subject_name', {
    header: 'Subject',
    enableSorting: false,
    meta: { primary: true },
    cell: ({ row }) => (
      <>
        <span className="text-muted-foreground">
          {subjectLabel[row.original.subject_type] ?? humanise(row.original.subject_type)}:
        </span>{' '}
        {row.original.subject_name}
      </>
    ),
  }),
  col.accessor((e) => auditChange(e), {
    id: 'change',
    header: 'Change',
    enableSorting: false,
  }),
  col.accessor('reason', { header: 'Reason', enableSorting: false, cell: (c) => c.getValue() ?? '—' }),
]

export function AuditLog() {
  const [page, setPage] = useState(0)
  const [subjectType, setSubjectType] = useState('')
  const log = useAuditLogQuery({ page, subjectType })
  return (
    <div className="space-y-3">
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          className="rounded-md border bg-background px-2 py-1"
          value={subjectType}
          onChange={(e) => {
            setSubjectType(e.target.value)
            setPage(0)
          }}
        >
          <option value="">every decision</option>
          {Object.entries(subjectLabel).map(([value, label]) => (
            <option key={value} value={value}>
              {label.toLowerCase()}s
            </option>
          ))}
        </select>
      </label>
      {log.isPending ? (
        <div role="status" aria-label="Loading the audit log">
          <Skeleton className="h-24" />
        </div>
      ) : log.isError ? (
        <QueryError title="Could not load the audit log" error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.rows.length === 0 ? (
        <p className="text-muted-foreground">No decisions recorded yet.</p>
      ) : (
        <>
          <div data-testid="audit-log">
            <DataTable
              columns={columns}
              data={log.data.rows}
              caption="Admin decisions, newest first"
              getRowId={(e) => e.id}
            />
          </div>
          <Pager
            page={page}
            pageSize={AUDIT_LOG_PAGE_SIZE}
            total={log.data.total}
            onPageChange={setPage}
            label="Audit log pages"
          />
        </>
      )}
    </div>
  )
}
