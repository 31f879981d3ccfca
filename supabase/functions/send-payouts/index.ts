/**
 * send-payouts: sends requested payouts as Stripe Connect transfers to the publishers' Express accounts. Called by the
 * database — pg_net, right after a payout is requested or retried and from the `send-payouts` pg_cron job each minute
 * while payouts are due — with the functions secret (_shared/functions-secret.ts); nobody else may call it.
 *
 * It claims due payouts (claim_due_payouts: skip locked with a 5-minute lease, so concurrent runs never take the same
 * one; a payout whose account is no longer ready is failed there with why, and never reaches Stripe) and makes one
 * transfer each, in cents and USD, with the payout's id as Stripe's idempotency key: a resend after a lost answer is
 * the same request to Stripe and never a second transfer. Stripe's answer is recorded by
 * finish_payout: paid with the `tr_…` id, or failed with Stripe's message (the amount is available again). When Stripe
 * cannot be reached or errs on its side, the payout is left sending: its lease expires and the next run resends it
 * with the same key.
 *
 * A run stays inside hosted Supabase's limits (../_shared/run-budget.ts): at most MAX_BATCHES × BATCH payouts, a batch's
 * transfers sent together, each Stripe call given TRANSFER_TIMEOUT_MS and one network retry (the package's defaults,
 * 80 s and two retries, would let one payout outlast the run), and no new claim after the run's first minute.
 */
import { requireEnv } from '../_shared/env.ts'
import { requireFunctionsSecret } from '../_shared/functions-secret.ts'
import { errorResponse, json, requirePost } from '../_shared/http.ts'
import { runBudget } from '../_shared/run-budget.ts'
import { requireStripe, Stripe, stripeClient } from '../_shared/stripe.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

type Claimed = {
  id: string
  publisher_id: string
  amount: number | string
  destination: string
  attempts: number
  idempotency_key: string
}

type Outcome = 'paid' | 'failed' | 'deferred'

const BATCH = 10
/** Enough batches for a burst; what remains waits for the next call (the job runs every minute). */
const MAX_BATCHES = 10
/** Per Stripe call: with one retry a payout's worst case is about 2 × 15 s, inside the run's 110 s. */
const TRANSFER_TIMEOUT_MS = 15_000

/** Stripe said no to the request itself: sending it again unchanged would get the same answer. */
const isRefusal = (error: InstanceType<typeof Stripe.errors.StripeError>) =>
  error instanceof Stripe.errors.StripeInvalidRequestError ||
  error instanceof Stripe.errors.StripePermissionError ||
  error instanceof Stripe.errors.StripeIdempotencyError ||
  error instanceof Stripe.errors.StripeCardError

async function finish(id: string, transferId: string | null, failure: string | null) {
  const { error } = await serviceClient().rpc('finish_payout', {
    p_payout_id: id,
    p_transfer_id: transferId,
    p_failure: failure,
  })
  if (error) throw new Error(`finish_payout failed: ${error.message}`)
}

async function send(payout: Claimed): Promise<Outcome> {
  const cents = Math.round(Number(payout.amount) * 100)
  try {
    const transfer = await stripeClient().transfers.create(
      {
        amount: cents,
        currency: 'usd',
        destination: payout.destination,
        description: 'Growletter payout',
        transfer_group: `payout_${payout.id}`,
        metadata: { payout_id: payout.id, publisher_id: payout.publisher_id },
      },
      { idempotencyKey: payout.idempotency_key, timeout: TRANSFER_TIMEOUT_MS, maxNetworkRetries: 1 },
    )
    await finish(payout.id, transfer.id, null)
    return 'paid'
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && isRefusal(error)) {
      console.warn(`send-payouts: ${payout.id} refused by Stripe: ${error.message}`)
      await finish(payout.id, null, error.message)
      return 'failed'
    }
    // Unreachable, rate limited or a Stripe-side error: the lease expires and the next run resends with the same key.
    console.error(`send-payouts: ${payout.id} (attempt ${payout.attempts}) left for the next run:`, error)
    return 'deferred'
  }
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  requireStripe()
  await requireFunctionsSecret(req, 'Only the database may send payouts')
  const budget = runBudget()
  const counts: Record<Outcome, number> = { paid: 0, failed: 0, deferred: 0 }
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await serviceClient().rpc('claim_due_payouts', { p_limit: BATCH })
    if (error) throw new Error(`claim_due_payouts failed: ${error.message}`)
    const batch = (data ?? []) as Claimed[]
    // Each payout has its own idempotency key and its own row: sending them together changes no outcome.
    for (const outcome of await Promise.all(batch.map(send))) counts[outcome]++
    if (batch.length < BATCH) break
  }
  return json(counts)
}

Deno.serve(async (req) => {
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
