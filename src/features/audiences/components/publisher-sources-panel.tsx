/** Sources: every source of the publisher with its status, note, links and click counts; add and edit. */
import { PencilIcon, PlusIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useMySourcesQuery } from '../api/publisher-sources-query'
import { useSourceClicksQuery } from '../api/source-clicks-query'
import { useMySourceRevisionsQuery } from '../api/publisher-source-revisions-query'
import { PendingRevision } from '@/components/pending-revision'
import { isSourceLive } from '../lib/source-status'
import { CampaignLinks } from './campaign-links'
import { PanelState } from '@/components/panel-state'
import { SourceFormDialog } from './source-form-dialog'
import { SourceItem } from './source-item'

export function MySourcesPanel({ userId, showCampaignLinks = true }: { userId: string; showCampaignLinks?: boolean }) {
  const sources = useMySourcesQuery(userId)
  const clicks = useSourceClicksQuery(userId, sources.isSuccess)
  const revisions = useMySourceRevisionsQuery(userId)

  return (
    <section className="flex flex-col gap-4" aria-labelledby="sources-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="sources-title" className="text-xl font-semibold">
          Your sources
        </h2>
        <SourceFormDialog
          userId={userId}
          trigger={
            <Button size="sm">
              <PlusIcon aria-hidden="true" /> Add source
            </Button>
          }
        />
      </div>
      {sources.isPending ? (
        <PanelState state="loading" />
      ) : sources.isError ? (
        <PanelState state="error" message={sources.error.message} />
      ) : sources.data.length === 0 ? (
        <p className="rounded-lg border p-6 text-center text-muted-foreground">
          You have no sources yet. Add your X account, newsletter, channel or website to get a magic link.
        </p>
      ) : (
        <>
          {clicks.isError && (
            <p className="text-sm text-red-700">Could not load click counts: {clicks.error.message}</p>
          )}
          <ul className="flex flex-col gap-4">
            {sources.data.map((source) => (
              <SourceItem
                key={source.id}
                source={source}
                clicks={clicks.data?.bySource.get(source.id)}
                actions={
                  <SourceFormDialog
                    userId={userId}
                    source={source}
                    trigger={
                      <Button size="sm" variant="ghost" aria-label={`Edit ${source.name}`}>
                        <PencilIcon aria-hidden="true" />
                      </Button>
                    }
                  />
                }
              >
                {revisions.data?.get(source.id) && (
                  <PendingRevision revision={revisions.data.get(source.id)!} testId="source-revision" />
                )}
                {showCampaignLinks && isSourceLive(source.status) && (
                  <CampaignLinks unifiedCode={source.unified_code} sourceName={source.name} />
                )}
              </SourceItem>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
