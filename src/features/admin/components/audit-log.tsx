/** The latest admin decisions, so every change of status can be traced to a person and a reason. */
import { Skeleton } from '@/components/ui/skeleton'
import { useAuditLogQuery } from '../api/audit-log-query'
import { formatDateTime } from '@/lib/format'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'

const subjectLabel: Record<string, string> = {
  audience_source: 'Source',
  campaign: 'Newsletter',
  profile: 'User',
  subscription: 'Subscriber',
  payout_request: 'Payout',
}

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
    <TableScroll label="Audit log table">
      <table className="w-full text-left text-sm" data-testid="audit-log">
        <caption className="sr-only">Latest admin decisions, newest first</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">When</th>
            <th scope="col" className="py-2 pr-3 font-medium">Who</th>
            <th scope="col" className="py-2 pr-3 font-medium">Subject</th>
            <th scope="col" className="py-2 pr-3 font-medium">Change</th>
            <th scope="col" className="py-2 font-medium">Reason</th>
          </tr>
        </thead>
        <tbody>
          {log.data.map((e) => (
            <tr key={e.id} className="border-b align-top last:border-0">
              <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(e.created_at)}</td>
              <td className="py-2 pr-3">{e.actor?.full_name || 'System'}</td>
              <td className="py-2 pr-3">
                {subjectLabel[e.subject_type] ?? e.subject_type} <span className="font-mono text-xs text-muted-foreground">{e.subject_id.slice(0, 8)}</span>
              </td>
              <td className="py-2 pr-3 whitespace-nowrap">
                {e.old_status ?? '—'} → {e.new_status ?? '—'}
              </td>
              <td className="py-2">{e.reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
