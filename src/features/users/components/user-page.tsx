/**
 * One user, for an admin investigating: who they are, their money as they see it (advertiser and publisher
 * parts from the database's balance functions), their sources and newsletters with links to analytics, their
 * signed-in sessions, and Suspend / Reinstate behind a confirmation with a reason.
 */
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Metric } from '@/components/metric'
import { QueryError } from '@/components/query-error'
import { ReasonDialog } from '@/components/reason-dialog'
import { formatCredits, formatDateTime } from '@/lib/format'
import { metrics } from '@/lib/metrics'
import { campaignStatus, userTypeWord } from '@/lib/vocabulary'
import { sourceStatus } from '@/lib/vocabulary-catalog'
import { useAdminUserQuery, type AdminUserPage } from '../api/admin-user-query'
import { useSuspendUserMutation } from '../api/suspend-user-mutation'
import { HeldMoneyCard } from './held-money-card'

function SuspendControl({ user }: { user: AdminUserPage['user'] }) {
  const [open, setOpen] = useState(false)
  const suspended = user.suspended_until !== null
  const mutation = useSuspendUserMutation({ onSuccess: () => setOpen(false) })
  const who = user.full_name || user.email || 'this user'
  return (
    <>
      <Button variant={suspended ? 'default' : 'destructive'} onClick={() => setOpen(true)}>
        {suspended ? 'Reinstate' : 'Suspend'}
      </Button>
      {/* A new form for each decision: the reason typed to suspend is not offered again to reinstate. */}
      <ReasonDialog
        key={suspended ? 'reinstate' : 'suspend'}
        open={open}
        onOpenChange={setOpen}
        title={suspended ? `Reinstate ${who}?` : `Suspend ${who}?`}
        description={
          suspended
            ? 'They can sign in and use their money again. The reason is kept in the audit log.'
            : 'They are signed out everywhere at once and cannot sign in, deposit, pay or request payouts until reinstated. Their links stop earning and their newsletters leave the list; money still in screening is held until you decide. The reason is kept in the audit log.'
        }
        confirmLabel={suspended ? 'Reinstate' : 'Suspend'}
        reasonRequired
        destructive={!suspended}
        pending={mutation.isPending}
        onConfirm={(reason) => mutation.mutate({ userId: user.id, suspended: !suspended, reason })}
      />
    </>
  )
}

function Listing({
  title,
  empty,
  rows,
  status,
  analytics,
}: {
  title: string
  empty: string
  rows: { id: string; name: string; status: string; created_at: string }[]
  status: (s: string) => { label: string; tone: 'green' | 'yellow' | 'red' | 'grey' }
  analytics: (id: string) => string
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="divide-y text-sm" aria-label={title}>
            {rows.map((r) => {
              const word = status(r.status)
              return (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    {r.name} <Badge variant={word.tone}>{word.label}</Badge>
                  </span>
                  <Link className="underline" to={analytics(r.id)} aria-label={`Analytics of ${r.name}`}>
                    Analytics
                  </Link>
                </li>
              )
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

export function UserPage({ userId }: { userId: string }) {
  const page = useAdminUserQuery(userId)
  if (page.isPending)
    return (
      <div role="status" aria-label="Loading the user">
        <Skeleton className="h-40" />
      </div>
    )
  if (page.isError)
    return <QueryError title="Could not load this user" error={page.error} onRetry={() => void page.refetch()} />
  const { user, advertiserMoney, publisherMoney, sessions, sources, campaigns } = page.data
  const type = userTypeWord(user.user_type)
  const suspended = user.suspended_until !== null
  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="flex flex-wrap items-start justify-between gap-4 pt-6">
          <div className="space-y-1">
            <p className="text-lg font-semibold">{user.full_name || 'No name set'}</p>
            <p className="break-all">{user.email ?? '—'}</p>
            <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <Badge variant={type.tone}>{type.label}</Badge>
              {suspended ? (
                <Badge variant="red" data-testid="user-suspended">
                  Suspended
                </Badge>
              ) : (
                <Badge variant="green">Active</Badge>
              )}
              Joined {formatDateTime(user.created_at)}
              {user.last_sign_in_at
                ? ` · last signed in ${formatDateTime(user.last_sign_in_at)}`
                : ' · never signed in'}
            </p>
          </div>
          <SuspendControl user={user} />
        </CardContent>
      </Card>
      <section aria-labelledby="user-money" className="space-y-3">
        <h2 id="user-money" className="text-xl font-semibold">
          Money
        </h2>
        <h3 className="font-medium">As an advertiser</h3>
        <dl className="grid gap-3 sm:grid-cols-4" data-testid="user-advertiser-money">
          <Metric
            label={metrics.available.label}
            value={formatCredits(advertiserMoney.available)}
            testId="user-available"
          />
          <Metric
            label={metrics.reserved.label}
            value={formatCredits(advertiserMoney.reserved)}
            testId="user-reserved"
          />
          <Metric label={metrics.onHold.label} value={formatCredits(advertiserMoney.onHold)} testId="user-on-hold" />
          <Metric label={metrics.balance.label} value={formatCredits(advertiserMoney.balance)} testId="user-balance" />
        </dl>
        <h3 className="font-medium">As a publisher</h3>
        <dl className="grid gap-3 sm:grid-cols-4" data-testid="user-publisher-money">
          <Metric label="Pending earnings" value={formatCredits(publisherMoney.pending)} testId="user-pending" />
          <Metric label="Available to pay out" value={formatCredits(publisherMoney.available)} testId="user-payable" />
          <Metric label="Payout requested" value={formatCredits(publisherMoney.requested)} testId="user-requested" />
          <Metric label="Paid out" value={formatCredits(publisherMoney.paid)} testId="user-paid" />
        </dl>
      </section>
      {suspended && <HeldMoneyCard userId={user.id} who={user.full_name || user.email || 'this user'} />}
      <div className="grid gap-6 lg:grid-cols-2">
        <Listing
          title="Newsletters"
          empty="No newsletters listed."
          rows={campaigns}
          status={campaignStatus}
          analytics={paths.admin.campaignAnalytics}
        />
        <Listing
          title="Sources"
          empty="No sources added."
          rows={sources}
          status={sourceStatus}
          analytics={paths.admin.sourceAnalytics}
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Signed-in sessions</CardTitle>
        </CardHeader>
        <CardContent>
          {sessions.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {suspended ? 'No sessions: suspending signed them out everywhere.' : 'Not signed in anywhere.'}
            </p>
          ) : (
            <ul className="divide-y text-sm" aria-label="Signed-in sessions">
              {sessions.map((s) => (
                <li key={s.id} className="py-2">
                  Since {formatDateTime(s.created_at)}
                  {s.refreshed_at ? ` · last active ${formatDateTime(s.refreshed_at)}` : ''} ·{' '}
                  {s.aal === 'aal2' ? 'with two-factor code' : 'password only'}
                  {s.ip ? ` · ${s.ip}` : ''}
                  {s.user_agent ? <span className="block text-muted-foreground">{s.user_agent}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
