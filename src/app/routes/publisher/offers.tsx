/**
 * /dashboard/publisher/offers: every newsletter the publisher can promote, what it pays them per paid
 * subscriber, whether it can still pay, its confirmation rate, and their link for it per source.
 */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { PageSpinner } from '@/components/page-spinner'
import { QueryError } from '@/components/query-error'
import { useMySourcesQuery } from '@/features/audiences/api/publisher-sources-query'
import { OffersList } from '@/features/offers/components/offers-list'

export default function PublisherOffersPage() {
  const { user } = useSession()
  const userId = user?.id ?? ''
  const sources = useMySourcesQuery(userId)
  return (
    <>
      <PageHeader
        title="Offers"
        description="Every newsletter you can promote, what it pays you per paid subscriber, and your link for it."
      />
      {sources.isPending ? (
        <PageSpinner />
      ) : sources.isError ? (
        <QueryError
          title="We couldn't load your sources. Try again."
          error={sources.error}
          onRetry={() => void sources.refetch()}
        />
      ) : (
        <OffersList
          userId={userId}
          sources={sources.data.map((s) => ({ id: s.id, name: s.name, status: s.status, unifiedCode: s.unified_code }))}
        />
      )}
    </>
  )
}
