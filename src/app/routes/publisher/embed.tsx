/**
 * /dashboard/publisher/embed: the one line of HTML per source that shows its offers on any site, a live preview,
 * and the embed's own figures (loads, subscribers), from the database.
 */
import { useSession } from '@/lib/session'
import { PageHeader } from '@/components/page-header'
import { PageSpinner } from '@/components/page-spinner'
import { QueryError } from '@/components/query-error'
import { useEmbedFiguresQuery } from '@/features/embed/api/embed-figures-query'
import { EmbedSources } from '@/features/embed/components/embed-sources'

export default function PublisherEmbedPage() {
  const { user } = useSession()
  const figures = useEmbedFiguresQuery(user?.id ?? '')
  return (
    <>
      <PageHeader
        title="Embed"
        description="Show your offers on your own site: each newsletter with its own box, double opt-in, paid like your links."
      />
      {figures.isPending ? (
        <PageSpinner />
      ) : figures.isError ? (
        <QueryError
          title="We couldn't load your embeds. Try again."
          error={figures.error}
          onRetry={() => void figures.refetch()}
        />
      ) : (
        <EmbedSources sources={figures.data} />
      )}
    </>
  )
}
