/**
 * Where a source's readers write from (admins): per email domain, the readers who confirmed, how many were paid and
 * how many the one-domain limit left unpaid, and when the last one came. One domain far ahead of the others, with
 * readers over the limit, is the trace of scripted inboxes on a catch-all domain.
 */
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { reasonLabel } from '@/lib/vocabulary'
import { SOURCE_DOMAIN_DAYS, useSourceDomainsQuery, type SourceDomain } from '../api/source-domains-query'

const figure = { align: 'right' } as const
const col = dataTableColumns<SourceDomain>()
const columns = [
  col.accessor('domain', {
    header: 'Email domain',
    meta: { primary: true },
    cell: (c) => (
      <span className="inline-flex flex-wrap items-center gap-2">
        {c.getValue()}
        {c.row.original.webmail && <Badge variant="grey">Webmail</Badge>}
      </span>
    ),
  }),
  col.accessor('confirmed', { header: 'Confirmed', meta: figure }),
  col.accessor('paid', { header: metrics.paidSubscribers.label, meta: figure }),
  col.accessor('overLimit', { header: 'Over the domain limit', meta: figure }),
  col.accessor('lastSeen', { header: 'Last seen', cell: (c) => formatDateTime(c.getValue()) }),
]

export function SourceDomains({ sourceId }: { sourceId: string }) {
  const domains = useSourceDomainsQuery(sourceId)
  let body
  if (domains.isPending)
    body = (
      <div role="status" aria-label="Loading the reader domains">
        <Skeleton className="h-24" />
      </div>
    )
  else if (domains.isError)
    body = (
      <QueryError
        title="Could not load the reader domains"
        error={domains.error}
        onRetry={() => void domains.refetch()}
      />
    )
  else if (domains.data.length === 0)
    body = <p className="text-sm text-muted-foreground">No reader confirmed through this source in that time.</p>
  else
    body = (
      <DataTable
        columns={columns}
        data={domains.data}
        caption={`Email domains of the readers who confirmed in the last ${SOURCE_DOMAIN_DAYS} days`}
        getRowId={(row) => row.domain}
        initialSorting={[{ id: 'confirmed', desc: true }]}
      />
    )
  return (
    <Card data-testid="source-domains">
      <CardHeader>
        <CardTitle>Reader domains, last {SOURCE_DOMAIN_DAYS} days</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {body}
        <p className="text-xs text-muted-foreground">
          Over the domain limit: not paid, “{reasonLabel('domain_velocity')}”. Webmail domains are never limited.
        </p>
      </CardContent>
    </Card>
  )
}
