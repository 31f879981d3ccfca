/** The audit log, page by page: every change of status traced to a person, a named subject and a reason. */
import { useState } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { AUDIT_LOG_PAGE_SIZE, useAuditLogQuery } from '../api/audit-log-query'
import { formatDateTime } from '@/lib/format'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { TableScroll } from '@/components/table-scroll'

const subjectLabel: Record<string, string> = {
  audience_source: 'Source',
  campaign: 'Newsletter',
  profile: 'User',
  subscription: 'Subscriber',
  payout_request: 'Payout',
  dispute: 'Dispute',
}

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
          <TableScroll label="Audit log table">
            <table className="w-full text-left text-sm" data-testid="audit-log">
              <caption className="sr-only">Admin decisions, newest first</caption>
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
                {log.data.rows.map((e) => (
                  <tr key={e.id} className="border-b align-top last:border-0">
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(e.created_at)}</td>
                    <td className="py-2 pr-3">{e.actor_name}</td>
                    <td className="py-2 pr-3">
                      <span className="text-muted-foreground">{subjectLabel[e.subject_type] ?? e.subject_type}:</span> {e.subject_name}
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
          <Pager page={page} pageSize={AUDIT_LOG_PAGE_SIZE} total={log.data.total} onPageChange={setPage} label="Audit log pages" />
        </>
      )}
    </div>
  )
}
