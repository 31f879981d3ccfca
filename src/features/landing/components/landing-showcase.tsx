/** Real examples from the marketplace: verified audience sources and active newsletters. */
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { EntityImage } from '@/components/entity-image'
import { categoryLabel, platformLabel } from '@/lib/vocabulary-catalog'
import { useVerifiedSourcesQuery, type LandingSource } from '../api/verified-sources-query'
import { useActiveNewslettersQuery, type LandingNewsletter } from '../api/active-newsletters-query'
import { ShowcaseList } from './showcase-list'

const SHOWCASE_SIZE = 6

function Thumb({ name, imageUrl }: { name: string; imageUrl: string | null }) {
  return <EntityImage src={imageUrl} name={name} size={40} />
}

function SourceCard({ source }: { source: LandingSource }) {
  return (
    <div className="flex h-full items-center gap-3 rounded-lg border bg-card p-3">
      <Thumb name={source.name} imageUrl={source.image_url} />
      <div className="min-w-0">
        <p className="truncate font-medium">{source.name}</p>
        <p className="text-sm text-muted-foreground">
          {platformLabel(source.platform)} · {categoryLabel(source.category)}
        </p>
      </div>
    </div>
  )
}

function NewsletterCard({ newsletter }: { newsletter: LandingNewsletter }) {
  return (
    <Link
      to={paths.newsletter(newsletter.id)}
      className="flex h-full items-center gap-3 rounded-lg border bg-card p-3 hover:border-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <Thumb name={newsletter.name} imageUrl={newsletter.image_url} />
      <div className="min-w-0">
        <p className="truncate font-medium">{newsletter.name}</p>
        <p className="line-clamp-1 text-sm text-muted-foreground">
          {newsletter.description ?? newsletter.category ?? 'Newsletter'}
        </p>
      </div>
    </Link>
  )
}

export function LandingShowcase() {
  const sources = useVerifiedSourcesQuery(SHOWCASE_SIZE)
  const newsletters = useActiveNewslettersQuery(SHOWCASE_SIZE)
  return (
    <div className="grid gap-12">
      <section aria-labelledby="showcase-newsletters" className="flex flex-col gap-4">
        <div className="flex items-end justify-between gap-4">
          <h2 id="showcase-newsletters" className="text-2xl font-bold tracking-tight">
            Newsletters growing right now
          </h2>
          <Link to={paths.newsletters} className="text-sm font-medium text-primary hover:underline">
            See all newsletters
          </Link>
        </div>
        <ShowcaseList
          label="active newsletters"
          items={newsletters.data}
          isPending={newsletters.isPending}
          error={newsletters.error}
          empty="No newsletters are running yet. Be the first."
          keyOf={(item) => item.id}
          render={(item) => <NewsletterCard newsletter={item} />}
        />
      </section>
      <section aria-labelledby="showcase-sources" className="flex flex-col gap-4">
        <div className="flex items-end justify-between gap-4">
          <h2 id="showcase-sources" className="text-2xl font-bold tracking-tight">
            Verified audiences
          </h2>
          <Link to={paths.audiences} className="text-sm font-medium text-primary hover:underline">
            Discover audiences
          </Link>
        </div>
        <ShowcaseList
          label="verified audience sources"
          items={sources.data}
          isPending={sources.isPending}
          error={sources.error}
          empty="No verified audiences yet."
          keyOf={(item) => item.id}
          render={(item) => <SourceCard source={item} />}
        />
      </section>
    </div>
  )
}
