/**
 * Each reader of the publisher's sources who confirmed but was not paid, or was refunded, with the reason in the
 * one vocabulary's plain words (src/lib/vocabulary.ts) and, on demand, the evidence row the advertiser sees — never
 * the reader's email.
 */
import { useState } from 'react'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { PageSpinner } from '@/components/page-spinner'
import { SubscriberEvidenceToggle } from '@/components/subscriber-evidence'
import { formatCredits, formatDateTime } from '@/lib/format'
import { reasonLabel } from '@/lib/vocabulary'
import { UNPAID_READERS_PAGE_SIZE, useUnpaidReadersQuery, type UnpaidReader } from '../api/unpaid-readers-query'

function Reader({ reader }: { reader: UnpaidReader }) {
  return (
    <li className="flex flex-col gap-1 rounded-md border p-3 text-sm" data-testid="unpaid-reader">
      <div className="flex flex-wrap justify-between gap-2">
        <span className="font-medium">
          {reader.campaignName} <span className="text-muted-foreground">via {reader.sourceName}</span>
        </span>
        <time className="text-muted-foreground" dateTime={reader.confirmedAt}>
          {formatDateTime(reader.confirmedAt)}
        </time>
      </div>
      <p>
        {reader.reason === 'refunded' ? (
          // The reason's one label already says it: "Refunded during screening (fraud or dispute)".
          <span className="font-medium">{reasonLabel(reader.reason)}</span>
        ) : (
          <>
            <span className="font-medium">Not paid:</span> {reasonLabel(reader.reason)}
          </>
        )}
        {reader.detail ? ` — ${reader.detail}` : ''}
        {reader.lostEarning != null ? ` (${formatCredits(reader.lostEarning)} cancelled)` : ''}
      </p>
      <SubscriberEvidenceToggle subscriptionId={reader.id} />
    </li>
  )
}

export function UnpaidReaders({ userId }: { userId: string }) {
  const [page, setPage] = useState(0)
  const readers = useUnpaidReadersQuery(userId, page)
  return (
    <section className="flex flex-col gap-2" aria-labelledby="unpaid-readers-title">
      <h3 id="unpaid-readers-title" className="text-lg font-semibold">
        Unpaid and refunded readers
      </h3>
      <p className="text-sm text-muted-foreground">
        Readers who confirmed through your links but did not earn you credits, and why.
      </p>
      {readers.isPending ? (
        <PageSpinner />
      ) : readers.isError ? (
        <QueryError
          title="We couldn't load your unpaid readers. Try again."
          error={readers.error}
          onRetry={() => void readers.refetch()}
        />
      ) : readers.data.total === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="unpaid-readers-empty">
          Every reader who confirmed through your links was paid.
        </p>
      ) : (
        <>
          <ul className="flex flex-col gap-2">
            {readers.data.readers.map((reader) => (
              <Reader key={reader.id} reader={reader} />
            ))}
          </ul>
          {readers.data.total > UNPAID_READERS_PAGE_SIZE && (
            <Pager
              page={page}
              pageSize={UNPAID_READERS_PAGE_SIZE}
              total={readers.data.total}
              onPageChange={setPage}
              label="Unpaid readers pages"
            />
          )}
        </>
      )}
    </section>
  )
}
