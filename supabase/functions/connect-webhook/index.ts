/**
 * connect-webhook (verify_jwt = false: Stripe sends no JWT): Stripe's signed Connect events, on an endpoint of their
 * own with their own signing secret (STRIPE_CONNECT_WEBHOOK_SECRET; in Stripe, a webhook endpoint listening to
 * events on connected accounts). A missing or bad signature is a 400 and changes nothing.
 *
 * - account.updated: update_payout_account keeps the publisher's payout account current (details submitted,
 *   payouts enabled, what is due, why it is disabled); an event older than the last one applied changes nothing.
 * - transfer.created: finish_payout records the payout named in the transfer's metadata paid, if send-payouts has
 *   not already (it died after Stripe made the transfer); a replay changes nothing.
 * - anything else: 200, nothing changes.
 * A database failure is a 500 so Stripe retries the event.
 */
import { errorResponse, json } from '../_shared/http.ts'
import type { Stripe } from '../_shared/stripe.ts'
import { verifiedStripeEvent } from '../_shared/stripe-webhook.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function rpc(name: string, args: Record<string, unknown>): Promise<unknown> {
  const { data, error } = await serviceClient().rpc(name, args)
  if (error) throw new Error(`${name} failed: ${error.message}`)
  return data
}

/** Everything Stripe says is due now or overdue, once each. */
const dueNow = (account: Stripe.Account) => [
  ...new Set([...(account.requirements?.currently_due ?? []), ...(account.requirements?.past_due ?? [])]),
]

async function handleEvent(event: Stripe.Event): Promise<string> {
  switch (event.type) {
    case 'account.updated': {
      const account = event.data.object
      const state = await rpc('update_payout_account', {
        p_account_id: account.id,
        p_details_submitted: account.details_submitted ?? false,
        p_payouts_enabled: account.payouts_enabled ?? false,
        p_requirements_due: dueNow(account),
        p_disabled_reason: account.requirements?.disabled_reason ?? null,
        p_as_of: new Date(event.created * 1000).toISOString(),
      })
      if (state === 'unknown_account')
        console.warn(`connect-webhook: ${event.id} is about unknown account ${account.id}`)
      return String(state)
    }
    case 'transfer.created': {
      const transfer = event.data.object
      const payoutId = transfer.metadata?.payout_id
      if (!payoutId || !UUID.test(payoutId)) return 'not_a_payout'
      const outcome = (await rpc('finish_payout', { p_payout_id: payoutId, p_transfer_id: transfer.id })) as {
        result: string
      }
      return outcome.result
    }
    default:
      return 'ignored'
  }
}

Deno.serve(async (req) => {
  let event: Stripe.Event
  try {
    event = await verifiedStripeEvent(req, 'STRIPE_CONNECT_WEBHOOK_SECRET', 'connect-webhook')
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
  try {
    return json({ received: true, result: await handleEvent(event) })
  } catch (error) {
    console.error(`connect-webhook: ${event.type} ${event.id} failed:`, error)
    return json({ error: 'Could not process the event; Stripe will retry it' }, 500)
  }
})
