/**
 * payments-webhook (verify_jwt = false: Stripe sends no JWT): Stripe's signed events about checkout
 * sessions. The `Stripe-Signature` header is verified with STRIPE_WEBHOOK_SECRET by _shared/stripe-webhook.ts
 * (the stripe package's own check, 5 minutes either way); a missing or bad signature is a 400 and changes nothing.
 *
 * - checkout.session.completed with payment_status paid, checkout.session.async_payment_succeeded:
 *   complete_deposit credits the wallet once per session, whatever the replays, order or concurrency, and
 *   queues the receipt email (notification queue) in the same transaction.
 * - checkout.session.async_payment_failed / checkout.session.expired: the pending deposit is closed.
 * - anything else: 200, nothing changes.
 * An event for a session or user we do not know is logged and answered 200 (a retry would not help);
 * a database failure is a 500 so Stripe retries it.
 */
import { errorResponse, json } from '../_shared/http.ts'
import type { Stripe } from '../_shared/stripe.ts'
import { verifiedStripeEvent } from '../_shared/stripe-webhook.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

type Session = Stripe.Checkout.Session
type Outcome = { result: string; deposit_id?: string; user_id?: string; balance?: number | null; amount?: number }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function rpc(name: string, args: Record<string, unknown>): Promise<Outcome> {
  const { data, error } = await serviceClient().rpc(name, args)
  if (error) throw new Error(`${name} failed: ${error.message}`)
  return data as Outcome
}

const paymentIntentId = (session: Session) =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null)

async function credit(event: Stripe.Event, session: Session): Promise<Outcome> {
  const userId = session.client_reference_id ?? session.metadata?.user_id ?? null
  if (session.currency !== 'usd' || session.amount_total === null) {
    console.error(`payments-webhook: ${event.id} session ${session.id} is not a USD amount; nothing credited`)
    return { result: 'not_usd' }
  }
  const outcome = await rpc('complete_deposit', {
    p_session_id: session.id,
    p_user_id: userId && UUID.test(userId) ? userId : null,
    p_amount: session.amount_total / 100,
    p_payment_intent: paymentIntentId(session),
  })
  // The receipt is queued by complete_deposit in the crediting transaction (notification queue).
  if (outcome.result !== 'credited' && outcome.result !== 'already_credited') {
    console.error(
      `payments-webhook: ${event.type} ${event.id} for session ${session.id} (user ${userId}) not credited: ${outcome.result}`,
    )
  }
  return outcome
}

async function handleEvent(event: Stripe.Event): Promise<Outcome> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      // Delayed methods (bank debits) complete unpaid; their async_payment_* event follows.
      if (session.payment_status !== 'paid') return { result: 'awaiting_payment' }
      return credit(event, session)
    }
    case 'checkout.session.async_payment_succeeded':
      return credit(event, event.data.object)
    case 'checkout.session.async_payment_failed':
      return close(event, event.data.object, 'failed', 'The payment failed.')
    case 'checkout.session.expired':
      return close(event, event.data.object, 'expired', null)
    default:
      return { result: 'ignored' }
  }
}

async function close(event: Stripe.Event, session: Session, status: 'failed' | 'expired', reason: string | null) {
  const outcome = await rpc('close_deposit', { p_session_id: session.id, p_status: status, p_reason: reason })
  if (outcome.result === 'unknown_session') {
    console.error(`payments-webhook: ${event.type} ${event.id} for unknown session ${session.id}`)
  }
  return outcome
}

Deno.serve(async (req) => {
  let event: Stripe.Event
  try {
    event = await verifiedStripeEvent(req, 'STRIPE_WEBHOOK_SECRET', 'payments-webhook')
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
  try {
    const outcome = await handleEvent(event)
    return json({ received: true, result: outcome.result })
  } catch (error) {
    console.error(`payments-webhook: ${event.type} ${event.id} failed:`, error)
    return json({ error: 'Could not process the event; Stripe will retry it' }, 500)
  }
})
