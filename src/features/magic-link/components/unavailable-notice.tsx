/**
 * `/newsletters/unavailable`: the landing for a link whose source cannot be used (SPEC §2). With
 * `?reason=pending` the source is still waiting for review: its link has not started working yet.
 */
import { Link, useSearchParams } from 'react-router-dom'
import { PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'
import { LinkIcon } from 'lucide-react'
import { paths } from '@/config/paths'
import { Button } from '@/components/ui/button'

export function UnavailableNotice() {
  const [params] = useSearchParams()
  const pending = params.get('reason') === 'pending'
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <LinkIcon className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-semibold">
        {pending ? 'This link is not active yet' : 'This link no longer works'}
      </h1>
      <p className="text-muted-foreground">
        {pending
          ? `${PENDING_SOURCE_LINK_TEXT}. Meanwhile, you can browse every newsletter or discover other trusted audiences.`
          : 'The audience source behind this link is not available any more. You can still browse every newsletter or discover other trusted audiences.'}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={paths.newsletters}>Browse Newsletters</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.audiences}>Discover Audiences</Link>
        </Button>
      </div>
    </section>
  )
}
