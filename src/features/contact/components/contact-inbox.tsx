/** The /contact inbox: newest first, filtered by handled state, each message with a reply link and its state. */
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { INBOX_PAGE_SIZE, useContactInboxQuery, type ContactMessage } from '../api/contact-inbox-query'
import { useMessageHandledMutation } from '../api/message-handled-mutation'
import type { InboxState } from '../keys'

const STATES: { value: InboxState; label: string; empty: string }[] = [
  { value: 'unhandled', label: 'Not handled', empty: 'Every message is handled.' },
  { value: 'handled', label: 'Handled', empty: 'No message is marked handled yet.' },
  {
    value: 'all',
    label: 'All messages',
    empty: 'No messages yet. Messages sent through the contact page appear here.',
  },
]

/** A reply in the admin's own mail app, addressed and titled. */
export const replyHref = (m: Pick<ContactMessage, 'email' | 'subject'>) =>
  `mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`

function MessageItem({ message }: { message: ContactMessage }) {
  const handled = useMessageHandledMutation()
  const done = message.handled_at !== null
  return (
    <li className="space-y-2 rounded-lg border p-4" data-testid="contact-message">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{message.subject}</h3>
        <Badge variant={done ? 'green' : 'yellow'}>{done ? 'Handled' : 'Not handled'}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        From {message.name} &lt;<span className="break-all">{message.email}</span>&gt; ·{' '}
        {formatDateTime(message.created_at)}
        {done && message.handled_at ? ` · handled ${formatDateTime(message.handled_at)}` : ''}
      </p>
      <p className="text-sm whitespace-pre-wrap">{message.message}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <a href={replyHref(message)}>Reply by email</a>
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={handled.isPending}
          onClick={() => handled.mutate({ messageId: message.id, handled: !done })}
        >
          {done ? 'Mark not handled' : 'Mark handled'}
        </Button>
      </div>
    </li>
  )
}

export function ContactInbox() {
  const [state, setState] = useState<InboxState>('unhandled')
  const [page, setPage] = useState(0)
  const inbox = useContactInboxQuery({ state, page })
  const current = STATES.find((s) => s.value === state)!
  return (
    <div className="space-y-4">
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          className="rounded-md border bg-background px-2 py-1"
          value={state}
          onChange={(e) => {
            setState(e.target.value as InboxState)
            setPage(0)
          }}
        >
          {STATES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {inbox.isPending ? (
        <div role="status" aria-label="Loading messages">
          <Skeleton className="h-24" />
        </div>
      ) : inbox.isError ? (
        <QueryError title="Could not load messages" error={inbox.error} onRetry={() => void inbox.refetch()} />
      ) : inbox.data.rows.length === 0 ? (
        <p className="text-muted-foreground">{current.empty}</p>
      ) : (
        <>
          <ul className="space-y-3" aria-label="Messages, newest first">
            {inbox.data.rows.map((m) => (
              <MessageItem key={m.id} message={m} />
            ))}
          </ul>
          <Pager
            page={page}
            pageSize={INBOX_PAGE_SIZE}
            total={inbox.data.total}
            onPageChange={setPage}
            label="Message pages"
          />
        </>
      )}
    </div>
  )
}
