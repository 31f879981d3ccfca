/** The latest admin decisions, so every change of status can be traced to a person and a reason. */
import { Skeleton } from '@/components/ui/skeleton'
import { useAuditLogQuery, type AuditEvent } from '../api/audit-log-query'
import { formatDateTime } from '@/lib/format'
import { QueryError } from '@/components/query-error'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { humanise } from '@/lib/vocabulary'

const subjectLabel: Record<string, string> = {
  audience_source: 'Source',
  campaign: 'Newsletter',
  profile: 'User',
  subscription: 'Subscriber',
  payout_request: 'Payout',
}

const status = (value: string | null) => (value ? humanise(value) : '—')
const col = dataTableColumns<AuditEvent>()
const columns = [
  col.accessor('created_at', { header: 'When', cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span> }),
  col.accessor((e) => e.actor?.full_name || 'System', { id: 'who', header: 'Who' }),
  col.accessor((e) => subjectLabel[e.subject_type] ?? humanise(e.subject_type), {
    id: 'subject',
    header: 'Subject',
    meta: { primary: true },
    cell: ({ row, getValue }) => (
      <>
        {getValue()} <span className="font-mono text-xs text-muted-foreground">{row.original.subject_id.slice(0, 8)}</span>
      </>
    ),
  }),
  col.accessor((e) => `${status(e.old_status)} → ${status(e.new_status)}`, { id: 'change', header: 'Change' }),
  col.accessor('reason', { header: 'Reason', enableSorting: false, cell: (c) => c.getValue() ?? '—' }),
]

export function AuditLog() {
  const log = useAuditLogQuery()
  if (log.isPending) {
    return (
      <div role="status" aria-label="Loading the audit log">
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (log.isError) return <QueryError title="Could not load the audit log" error={log.error} onRetry={() => void log.refetch()} />
  if (log.data.length === 0) return <p className="text-muted-foreground">No decisions recorded yet.</p>
  return (
    <div data-testid="audit-log">
      <DataTable columns={columns} data={log.data} caption="Latest admin decisions, newest first" getRowId={(e) => e.id} />
    </div>
  )
}
