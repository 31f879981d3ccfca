/**
 * The advertiser's campaigns on the overview: status, confirmed and paid subscribers of the last 7 days, spend, pause/resume,
 * the admin's note on a rejected one, and why a campaign is not being shown when money runs short.
 */
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { AlertTriangleIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useMyCampaignsQuery } from '../api/advertiser-campaigns-query'
import { useWeekSubscribersQuery } from '../api/week-subscribers-query'
import { metrics } from '@/lib/metrics'
import { useCampaignPauseMutation } from '../api/campaign-pause-mutation'
import { fundingProblem } from '../campaign-funding'
import { formatCredits } from '@/lib/format'
import { CampaignStatusBadge } from './campaign-status-badge'
import { QueryError } from '@/components/query-error'

type CampaignListProps = {
  advertiserId: string
  /** Spendable credits, when known: a campaign the balance cannot pay for says so. */
  availableBalance?: number
  analyticsHref: (campaignId: string) => string
  walletHref: string
  /** Shown where a campaign says the balance is too low, e.g. a button that opens the deposit dialog. */
  fundAction?: ReactNode
  empty: ReactNode
}

export function CampaignList({
  advertiserId,
  availableBalance,
  analyticsHref,
  walletHref,
  fundAction,
  empty,
}: CampaignListProps) {
  const campaigns = useMyCampaignsQuery(advertiserId)
  const ids = campaigns.data?.map((c) => c.id) ?? []
  const week = useWeekSubscribersQuery(ids)
  const pause = useCampaignPauseMutation({
    onSuccess: ({ paused }) => toast.success(paused ? 'Campaign paused' : 'Campaign resumed'),
  })

  if (campaigns.isPending) {
    return (
      <div role="status" aria-label="Loading campaigns" className="space-y-3">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
    )
  }
  if (campaigns.isError) {
    return (
      <QueryError
        title="Could not load your campaigns"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    )
  }
  if (campaigns.data.length === 0) return <>{empty}</>

  return (
    <ul className="space-y-3" aria-label="Your campaigns">
      {campaigns.data.map((campaign) => {
        const problem = fundingProblem(campaign, availableBalance)
        const weekCount = week.data?.[campaign.id]
        const busy = pause.isPending && pause.variables?.campaignId === campaign.id
        return (
          <li key={campaign.id} data-testid="campaign-item" className="rounded-lg border p-4">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h3 className="truncate font-semibold">
                  <Link to={analyticsHref(campaign.id)} className="hover:underline">
                    {campaign.name}
                  </Link>
                </h3>
                <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                  <CampaignStatusBadge status={campaign.status} />
                  <span>{formatCredits(campaign.price_per_subscriber)} per subscriber</span>
                </div>
              </div>
              {(campaign.status === 'active' || campaign.status === 'paused') && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={busy}
                  aria-label={`${campaign.status === 'active' ? 'Pause' : 'Resume'} ${campaign.name}`}
                  onClick={() => pause.mutate({ campaignId: campaign.id, paused: campaign.status === 'active' })}
                >
                  {campaign.status === 'active' ? 'Pause' : 'Resume'}
                </Button>
              )}
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
              <div title={metrics.weekConfirmedSubscribers.definition}>
                <dt className="text-muted-foreground">{metrics.weekConfirmedSubscribers.label}</dt>
                <dd className="font-medium" data-testid="campaign-week-subscribers">
                  {weekCount?.confirmed ?? (week.isError ? '—' : '…')}
                </dd>
              </div>
              <div title={metrics.weekPaidSubscribers.definition}>
                <dt className="text-muted-foreground">{metrics.weekPaidSubscribers.label}</dt>
                <dd className="font-medium" data-testid="campaign-week-paid">
                  {weekCount?.paid ?? (week.isError ? '—' : '…')}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Spend</dt>
                <dd className="font-medium">{formatCredits(campaign.budget_spent)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Budget</dt>
                <dd className="font-medium">{formatCredits(campaign.budget_total)}</dd>
              </div>
            </dl>
            {campaign.status === 'rejected' && campaign.review_note && (
              <p className="mt-3 rounded-md bg-red-50 p-2 text-sm text-red-900">
                <span className="font-semibold">Reviewer's note: </span>
                {campaign.review_note}
              </p>
            )}
            {problem && (
              <p
                role="note"
                className="mt-3 flex items-start gap-2 rounded-md bg-yellow-50 p-2 text-sm text-yellow-900"
              >
                <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>
                  {problem.message}{' '}
                  {problem.reason === 'balance' && (
                    <>
                      <Link to={walletHref} className="font-medium underline">
                        Go to your wallet
                      </Link>
                      {fundAction && <> or {fundAction}</>}
                    </>
                  )}
                </span>
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
