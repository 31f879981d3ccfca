/**
 * The admin's reconciliation with Stripe: one button runs it (reconcile-payouts), then the figures it compared and
 * each difference in words (what Growletter recorded, what Stripe lists), or a sentence saying everything matches.
 */
import { RECONCILIATION_DIFFERENCES, type Reconciliation } from '@rules/payout-reconciliation'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { formatDateTime } from '@/lib/format'
import { usePayoutReconciliationMutation } from '../api/payout-reconciliation-mutation'

export function PayoutReconciliation() {
  const reconcile = usePayoutReconciliationMutation()
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        Compares every payout sent through Stripe with Stripe&apos;s own list of transfers to the publishers&apos;
        accounts: transfers missing at Stripe, other amounts or accounts, reversals not recorded here, and transfers no
        payout accounts for. Nothing is changed.
      </p>
      <Button onClick={() => reconcile.mutate()} disabled={reconcile.isPending}>
        {reconcile.isPending ? 'Reconciling with Stripe…' : 'Reconcile with Stripe'}
      </Button>
      {reconcile.isError && (
        <p role="alert" className="text-sm text-red-700">
          {reconcile.error.message}
        </p>
      )}
      {reconcile.data && <ReconciliationResult result={reconcile.data} />}
    </div>
  )
}

function ReconciliationResult({ result }: { result: Reconciliation }) {
  const count = result.differences.length
  return (
    <section className="space-y-2" aria-label="Reconciliation with Stripe">
      <p className="text-sm text-muted-foreground" data-testid="reconcile-summary">
        Checked {result.payouts_checked} {result.payouts_checked === 1 ? 'payout' : 'payouts'} against{' '}
        {result.transfers_seen} Stripe {result.transfers_seen === 1 ? 'transfer' : 'transfers'} on {result.accounts}{' '}
        {result.accounts === 1 ? 'account' : 'accounts'}, {formatDateTime(result.checked_at)}.
      </p>
      {count === 0 ? (
        <p className="font-medium text-green-700">No differences: every payout matches Stripe.</p>
      ) : (
        <>
          <p className="font-medium text-red-700">
            {count} {count === 1 ? 'difference' : 'differences'} with Stripe
          </p>
          <ul className="space-y-2" aria-label="Differences with Stripe">
            {result.differences.map((d, i) => {
              const kind = RECONCILIATION_DIFFERENCES[d.kind]
              return (
                <li
                  key={`${d.kind}-${d.payout_id ?? ''}-${d.transfer_id ?? ''}-${i}`}
                  className="space-y-1 rounded-lg border p-3 text-sm"
                  data-testid="reconcile-difference"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant="red">{kind?.label ?? d.kind}</Badge>
                    {d.publisher && <span className="font-medium">{d.publisher}</span>}
                  </div>
                  {kind && <p className="text-muted-foreground">{kind.explain}</p>}
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                    <dt className="text-muted-foreground">Here</dt>
                    <dd>{d.recorded}</dd>
                    <dt className="text-muted-foreground">At Stripe</dt>
                    <dd>{d.at_stripe}</dd>
                    {d.transfer_id && (
                      <>
                        <dt className="text-muted-foreground">Transfer</dt>
                        <dd className="font-mono break-all">{d.transfer_id}</dd>
                      </>
                    )}
                    {d.payout_id && (
                      <>
                        <dt className="text-muted-foreground">Payout</dt>
                        <dd className="font-mono break-all">{d.payout_id}</dd>
                      </>
                    )}
                    {d.account && (
                      <>
                        <dt className="text-muted-foreground">Account</dt>
                        <dd className="font-mono break-all">{d.account}</dd>
                      </>
                    )}
                  </dl>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </section>
  )
}
