/**
 * "Set up payouts": where the publisher's Stripe Express account stands (not set up, pending verification, ready,
 * action needed) and the button that starts or resumes Stripe's hosted onboarding. Stripe collects identity, bank
 * account and tax forms there; Growletter only keeps the account's state. Once ready, the publisher may ask for
 * automatic payouts.
 */
import { useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { useQueryClient } from '@tanstack/react-query'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { PanelState } from '@/components/panel-state'
import { MIN_PAYOUT } from '@rules/payout'
import { payoutAccountState } from '@/lib/vocabulary'
import { usePayoutAccountQuery, type PayoutAccount } from '../api/payout-account-query'
import { useConnectOnboardingMutation } from '../api/connect-onboarding-mutation'
import { useAutoPayoutMutation } from '../api/auto-payout-mutation'
import { payoutKeys } from '../keys'

const explanations: Record<PayoutAccount['state'], string> = {
  not_set_up:
    'Payouts are sent to your bank account through Stripe. Stripe asks for your identity, bank account and tax details; it takes a few minutes.',
  pending_verification:
    'Stripe has your details and is verifying them. You can request payouts as soon as it is done; this page updates by itself.',
  ready: 'Your payouts go to the bank account you gave Stripe. You can change your details on Stripe at any time.',
  action_needed: 'Stripe needs more information before it can pay you. Continue on Stripe to finish what it asks.',
}

function buttonLabel(account: PayoutAccount): string {
  if (account.state === 'ready') return 'Update payout details'
  if (account.state === 'action_needed') return 'Continue on Stripe'
  return account.exists ? 'Resume onboarding' : 'Set up payouts'
}

export function PayoutSetup({ userId }: { userId: string }) {
  const account = usePayoutAccountQuery(userId)
  const onboarding = useConnectOnboardingMutation({ onSuccess: ({ url }) => window.location.assign(url) })
  const autoPayout = useAutoPayoutMutation()
  const location = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()

  // Back from Stripe (`?onboarding=return` or `=refresh`): read the account again, then clear the query.
  useEffect(() => {
    if (!new URLSearchParams(location.search).has('onboarding')) return
    void queryClient.invalidateQueries({ queryKey: payoutKeys.account(userId) })
    navigate({ pathname: location.pathname, hash: location.hash }, { replace: true })
  }, [location, navigate, queryClient, userId])

  return (
    <section className="flex flex-col gap-3 rounded-lg border bg-card p-4" aria-labelledby="payout-setup-title">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="payout-setup-title" className="text-xl font-semibold">
          Set up payouts
        </h2>
        {account.isSuccess && (
          <Badge variant={payoutAccountState(account.data.state).tone} data-testid="payout-account-state">
            {payoutAccountState(account.data.state).label}
          </Badge>
        )}
      </div>
      {account.isPending ? (
        <PanelState state="loading" />
      ) : account.isError ? (
        <PanelState state="error" message={account.error.message} />
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{explanations[account.data.state]}</p>
          {account.data.state === 'action_needed' && account.data.disabledReason?.startsWith('rejected.') && (
            <p className="text-sm text-red-700" role="status">
              Stripe declined this payout account. Contact us so we can find another way to pay you.
            </p>
          )}
          <div className="flex flex-wrap items-center gap-4">
            <Button
              variant={account.data.state === 'ready' ? 'outline' : 'default'}
              disabled={onboarding.isPending}
              onClick={() => onboarding.mutate()}
              data-testid="payout-setup-button"
            >
              {onboarding.isPending ? 'Opening Stripe…' : buttonLabel(account.data)}
            </Button>
            {account.data.state === 'ready' && (
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={account.data.autoPayout}
                  disabled={autoPayout.isPending}
                  onChange={(e) => autoPayout.mutate({ userId, enabled: e.target.checked })}
                />
                Pay me automatically whenever {MIN_PAYOUT} credits or more are available
              </label>
            )}
          </div>
        </>
      )}
    </section>
  )
}
