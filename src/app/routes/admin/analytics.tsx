/**
 * /dashboard/admin/analytics/{campaign|source}/{id}: the advertiser's analytics of any newsletter, or the same
 * figures of any source per newsletter, from the figure functions (which let admins at aal2 see every row); a
 * source's page adds where its readers write from (the email domains, evidence of the one-domain limit).
 */
import { Link, useParams } from 'react-router-dom'
import { paths } from '@/config/paths'
import { PageHeader } from '@/components/page-header'
import { Badge } from '@/components/ui/badge'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { campaignStatus } from '@/lib/vocabulary'
import { sourceStatus } from '@/lib/vocabulary-catalog'
import { CampaignAnalytics } from '@/features/analytics/components/campaign-analytics'
import { SourceDomains } from '@/features/analytics/components/source-domains'
import { useAnalyticsSubjectQuery, type SubjectKind } from '@/features/analytics/api/admin-subject-query'

export default function AdminAnalyticsPage() {
  const { kind: rawKind = '', id = '' } = useParams()
  const kind: SubjectKind = rawKind === 'source' ? 'source' : 'campaign'
  const subject = useAnalyticsSubjectQuery(kind, id)
  const noun = kind === 'source' ? 'source' : 'newsletter'
  let body
  if (subject.isPending)
    body = (
      <div role="status" aria-label={`Loading the ${noun}`}>
        <Skeleton className="h-10 max-w-md" />
      </div>
    )
  else if (subject.isError)
    body = (
      <QueryError title={`Could not load this ${noun}`} error={subject.error} onRetry={() => void subject.refetch()} />
    )
  else if (!subject.data)
    body = (
      <p role="alert">
        No {noun} with this id. <Link to={paths.admin.catalog}>Back to Sources &amp; newsletters</Link>
      </p>
    )
  else {
    const s = subject.data
    const word = kind === 'source' ? sourceStatus(s.status) : campaignStatus(s.status)
    body = (
      <div className="space-y-6">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-lg font-semibold">{s.name}</span>
          <Badge variant={word.tone}>{word.label}</Badge>
          <span className="text-sm text-muted-foreground">
            by{' '}
            <Link className="underline" to={paths.admin.user(s.ownerId)}>
              {s.ownerName ?? 'Owner without a name'}
            </Link>
          </span>
        </p>
        <CampaignAnalytics key={`${kind}:${s.id}`} campaignId={{ kind, id: s.id }} />
        {kind === 'source' && <SourceDomains sourceId={s.id} />}
      </div>
    )
  }
  return (
    <>
      <PageHeader
        title="Analytics"
        description={
          kind === 'source'
            ? 'Views, clicks, paid subscribers and spend this source brought, per newsletter and per day.'
            : 'Views, clicks, paid subscribers and spend of this newsletter, per source and per day.'
        }
        documentTitle={subject.data ? `${subject.data.name} · Analytics · Admin` : undefined}
      />
      {body}
    </>
  )
}
