/**
 * connect-webhook (verify_jwt = false: Stripe sends no JWT): Stripe's signed Connect events, on an endpoint of their
 * own with their own signing secret (STRIPE_CONNECT_WEBHOOK_SECRET; in Stripe, a webhook endpoint listening to
 * events on connected accounts). Transfers are the platform's own objects, so in production their events
 * (transfer.created, transfer.reversed) come from a second endpoint listening to events on the platform account,
 * signed with STRIPE_TRANSFERS_WEBHOOK_SECRET; either secret verifies. (Locally the stand-in signs all of them with
 * the Connect secret.) A missing or bad signature is a 400 and changes nothing.
 *
 * An event says that something changed, not what is true now: Stripe does not deliver events in order and retries
 * old ones, so two events of the same second can arrive either way round. The function therefore reads the object
 * from Stripe as it is now and applies that, whatever the event carried:
 * - account events (account.updated, capability.updated, account.external_account.*, person.*): the account is
 *   retrieved (GET /v1/accounts/{id}) and update_payout_account records it, dated by when it was read; a reading
 *   older than the one applied changes nothing. A stale "payouts enabled" after a rejection finds the account rejected.
 * - transfer.created: finish_payout records the payout named in the transfer's metadata paid, if send-payouts has
 *   not already (it died after Stripe made the transfer); a replay changes nothing.
 * - transfer.reversed: the transfer is retrieved and record_payout_reversal records what came back since the last
 *   time (its total amount_reversed): money back in the publisher's balance, once, however often the event comes.
 * - anything else: 200, nothing changes.
 * A database failure, or Stripe unreachable, is a 500 so Stripe retries the event.
 */
import { errorResponse, json } from '../_shared/http.ts'
import { Stripe, stripeClient } from '../_shared/stripe.ts'
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

/** Stripe answered that the object does not exist (or is no longer the platform's to read). */
const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeError &&
  (error.code === 'resource_missing' || error instanceof Stripe.errors.StripePermissionError)

/** The connected account an account event is about: the event's `account`, or the object's own. */
function accountOf(event: Stripe.Event): string | null {
  if (event.account) return event.account
  const object = event.data.object as { object?: string; id?: string; account?: unknown }
  if (object.object === 'account' && typeof object.id === 'string') return object.id
  return typeof object.account === 'string' ? object.account : null
}

const isAccountEvent = (type: string) =>
  type.startsWith('account.') || type.startsWith('person.') || type === 'capability.updated'

async function applyAccount(event: Stripe.Event): Promise<string> {
  const id = accountOf(event)
  if (!id) return 'ignored'
  let account: Stripe.Account
  try {
    account = await stripeClient().accounts.retrieve(id)
  } catch (error) {
    if (!isMissing(error)) throw error
    console.warn(`connect-webhook: ${event.id}: Stripe has no account ${id} for us`)
    return 'unknown_account'
  }
  // Dated when it was read: of two readings applied out of order, the later one wins.
  const readAt = new Date().toISOString()
  const state = await rpc('update_payout_account', {
    p_account_id: account.id,
    p_details_submitted: account.details_submitted ?? false,
    p_payouts_enabled: account.payouts_enabled ?? false,
    p_requirements_due: dueNow(account),
    p_disabled_reason: account.requirements?.disabled_reason ?? null,
    p_as_of: readAt,
  })
  if (state === 'unknown_account') console.warn(`connect-webhook: ${event.id} is about unknown account ${account.id}`)
  return String(state)
}

async function recordReversal(event: Stripe.Event): Promise<string> {
  const sent = event.data.object as Stripe.Transfer
  const payoutId = sent.metadata?.payout_id
  if (!payoutId || !UUID.test(payoutId)) return 'not_a_payout'
  let transfer: Stripe.Transfer
  try {
    transfer = await stripeClient().transfers.retrieve(sent.id)
  } catch (error) {
    if (!isMissing(error)) throw error
    console.warn(`connect-webhook: ${event.id}: Stripe has no transfer ${sent.id}`)
    return 'unknown_transfer'
  }
  const outcome = (await rpc('record_payout_reversal', {
    p_payout_id: payoutId,
    p_transfer_id: transfer.id,
    p_amount_reversed_cents: transfer.amount_reversed,
  })) as { result: string }
  return outcome.result
}

async function handleEvent(event: Stripe.Event): Promise<string> {
  if (isAccountEvent(event.type)) return applyAccount(event)
  switch (event.type) {
    case 'transfer.created': {
      const transfer = event.data.object
      const payoutId = transfer.metadata?.payout_id
      if (!payoutId || !UUID.test(payoutId)) return 'not_a_payout'
      const outcome = (await rpc('finish_payout', { p_payout_id: payoutId, p_transfer_id: transfer.id })) as {
        result: string
      }
      return outcome.result
    }
    case 'transfer.reversed':
      return recordReversal(event)
    default:
      return 'ignored'
  }
}

Deno.serve(async (req) => {
  let event: Stripe.Event
  try {
    event = await verifiedStripeEvent(
      req,
      ['STRIPE_CONNECT_WEBHOOK_SECRET', 'STRIPE_TRANSFERS_WEBHOOK_SECRET'],
      'connect-webhook',
    )
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
