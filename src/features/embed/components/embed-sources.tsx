/**
 * The Embed page's body: per source, the snippet (src/embed/room.ts: the frame in the room its offers need now, then
 * the one-line script of ARCHITECTURE "Wave 4 interfaces") with a Copy button, the embed's own figures from the
 * database, and a live preview: the real frame, `/embed/{code}`, in the same room, growing only as the frame asks
 * (the same postMessage embed.js listens to).
 */
import { useEffect, useRef, useState } from 'react'
import { CopyButton } from '@/components/copy-button'
import { Metric } from '@/components/metric'
import { Button } from '@/components/ui/button'
import { formatCount } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { isPublicSourceStatus } from '@/lib/vocabulary-catalog'
import { isSourceAwaitingReview, PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'
import { EMBED_ROWS_SHOWN, embedRoomHeight, embedSnippet } from '@/embed/room'
import type { EmbedSourceFigures } from '../api/embed-figures-query'

function EmbedPreview({ code, name, room }: { code: string; name: string; room: number }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(room)
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; height?: unknown } | null
      if (event.source !== frame.current?.contentWindow || event.origin !== window.location.origin) return
      if (data?.type === 'growletter-embed:height' && typeof data.height === 'number')
        setHeight(Math.max(room, Math.min(Math.ceil(data.height), 4000)))
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [room])
  return (
    <iframe
      ref={frame}
      src={`/embed/${encodeURIComponent(code)}`}
      title={`Preview of the embed of ${name}`}
      className="block w-full max-w-[560px] border-0"
      style={{ height }}
      data-testid="embed-preview"
    />
  )
}

function EmbedSource({ source }: { source: EmbedSourceFigures }) {
  const [preview, setPreview] = useState(false)
  const live = isPublicSourceStatus(source.status)
  const snippet = embedSnippet(window.location.origin, source.unifiedCode, source.offers)
  return (
    <section
      aria-labelledby={`embed-${source.sourceId}`}
      className="flex flex-col gap-4 rounded-lg border bg-card p-4 sm:p-5"
      data-testid="embed-source"
    >
      <h2 id={`embed-${source.sourceId}`} className="text-lg font-semibold">
        {source.sourceName}
      </h2>
      {live ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted-foreground">
            Paste this line where the offers should appear on your site or thank-you page. It keeps room for the{' '}
            {formatCount(source.offers)} {source.offers === 1 ? 'newsletter' : 'newsletters'} shown now
            {source.offers > EMBED_ROWS_SHOWN ? ` (${EMBED_ROWS_SHOWN} in view, the rest scroll inside it)` : ''}, so
            your page does not move when they load.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <code className="min-w-0 flex-1 rounded bg-muted px-2 py-1.5 text-xs break-all" data-testid="embed-snippet">
              {snippet}
            </code>
            <CopyButton
              value={snippet}
              label={`Copy the embed snippet of ${source.sourceName}`}
              copiedText="Snippet copied"
            />
          </div>
        </div>
      ) : (
        <p className="rounded bg-muted px-2 py-1.5 text-sm text-muted-foreground">
          {isSourceAwaitingReview(source.status)
            ? `Waiting for review. ${PENDING_SOURCE_LINK_TEXT}.`
            : 'This source is not live: its embed shows nothing.'}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Metric label={metrics.embedLoads.label} value={formatCount(source.loads)} testId="embed-loads" />
        <Metric
          label={metrics.embedConfirmedSubscribers.label}
          value={formatCount(source.subscribers)}
          testId="embed-subscribers"
        />
        <Metric
          label={metrics.embedPaidSubscribers.label}
          value={formatCount(source.paidSubscribers)}
          testId="embed-paid"
        />
        <Metric
          label={metrics.tokenPaidSubscribers.label}
          value={formatCount(source.tokenSubscribers)}
          hint="Readers who clicked in an app and subscribed in their browser."
          testId="embed-token"
        />
      </dl>
      {live && (
        <div className="flex flex-col gap-3">
          <Button
            type="button"
            variant="outline"
            className="self-start"
            aria-expanded={preview}
            onClick={() => setPreview((p) => !p)}
          >
            {preview ? 'Hide preview' : 'Show preview'}
          </Button>
          {preview && (
            <EmbedPreview code={source.unifiedCode} name={source.sourceName} room={embedRoomHeight(source.offers)} />
          )}
        </div>
      )}
    </section>
  )
}

export function EmbedSources({ sources }: { sources: EmbedSourceFigures[] }) {
  if (sources.length === 0)
    return (
      <p className="rounded-lg border p-8 text-center text-muted-foreground">
        Add a source first: each approved source gets its own embed.
      </p>
    )
  return (
    <div className="flex flex-col gap-6">
      {sources.map((s) => (
        <EmbedSource key={s.sourceId} source={s} />
      ))}
    </div>
  )
}
