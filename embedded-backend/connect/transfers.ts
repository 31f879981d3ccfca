/**
 * The Connect stand-in's transfers: POST /v1/transfers (to an account whose `transfers` capability is active, else
 * Stripe's error and no event), GET /v1/transfers/{id}, GET /v1/transfers (newest first, a page at a time) and
 * POST /v1/transfers/{id}/reversals. Each transfer is reported as `transfer.created`, each reversal as
 * `transfer.reversed`.
 */
import { stripeId } from './deliveries'
import { once, stored, type ConnectState } from './state'
import {
  invalid,
  LIST_PARAMS,
  listLimit,
  metadataOf,
  missing,
  StripeRequestError,
  type LocalReversal,
  type LocalTransfer,
  type StripeList,
} from './stripe-objects'

/** A whole number of cents of at least 1, as Stripe reads `amount`. */
function amountOf(amountParam: string): number {
  const amount = Number(amountParam)
  if (!/^\d+$/.test(amountParam) || !Number.isSafeInteger(amount)) {
    throw invalid(`Invalid integer: ${amountParam}`, 'amount', 'parameter_invalid_integer')
  }
  if (amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount', 'amount_too_small')
  return amount
}

const noSuchTransfer = (id: string) =>
  new StripeRequestError(404, {
    type: 'invalid_request_error',
    message: `No such transfer: '${id}'`,
    code: 'resource_missing',
    param: 'id',
  })

/** The transfer's destination, refused as Stripe refuses one that cannot receive transfers. */
function destinationOf(state: ConnectState, params: URLSearchParams) {
  const destinationId = params.get('destination')
  if (!destinationId) throw missing('destination')
  const destination = state.accounts.get(destinationId)
  if (!destination) throw invalid(`No such destination: '${destinationId}'`, 'destination', 'resource_missing')
  if (destination.capabilities.transfers !== 'active') {
    // Stripe's answer when the destination cannot receive transfers (not onboarded, restricted or rejected).
    throw invalid(
      'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      'destination',
      'insufficient_capabilities_for_transfer',
    )
  }
  return destination
}

/** POST /v1/transfers: money to a connected account whose transfers capability is active, else Stripe's error. */
export const createTransfer = (state: ConnectState, params: URLSearchParams, key?: string) =>
  once(state, 'transfers', key, params, async (idempotencyKey, request) => {
    const amountParam = params.get('amount')
    if (amountParam === null) throw missing('amount')
    const amount = amountOf(amountParam)
    const currency = params.get('currency')?.toLowerCase()
    if (!currency) throw missing('currency')
    if (currency !== 'usd') throw invalid(`The local Connect stand-in transfers usd only, not ${currency}.`, 'currency')
    const destination = destinationOf(state, params)
    const id = stripeId('tr')
    const transfer: LocalTransfer = {
      id,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: stripeId('txn'),
      created: state.nowSeconds(),
      currency,
      description: params.get('description'),
      destination: destination.id,
      destination_payment: stripeId('py'),
      livemode: false,
      metadata: metadataOf(params),
      reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: null,
      transfer_group: params.get('transfer_group'),
    }
    state.transfers.set(id, transfer)
    // Saved with its event before the answer; the event itself goes in the background (the caller of
    // /v1/transfers must not wait on its own webhook, which may wait on the caller's transaction).
    await state.deliveries.send(
      [stored('transfer', id, transfer, idempotencyKey, request)],
      'transfer.created',
      transfer,
      { idempotencyKey },
      false,
    )
    return transfer
  })

export function getTransfer(state: ConnectState, id: string): LocalTransfer {
  const found = state.transfers.get(id)
  if (!found) throw noSuchTransfer(id)
  return found
}

/** GET /v1/transfers: newest first, filtered by destination or transfer group, a page of `limit` (1–100). */
export function listTransfers(state: ConnectState, query: URLSearchParams): StripeList<LocalTransfer> {
  for (const name of query.keys()) {
    if (!LIST_PARAMS.has(name)) throw invalid(`Received unknown parameter: ${name}`, name, 'parameter_unknown')
  }
  const limit = listLimit(query.get('limit'))
  const destination = query.get('destination')
  const group = query.get('transfer_group')
  // Newest first; transfers made in the same second in the order they were made, newest first.
  const ordered = [...state.transfers.values()]
    .map((t, i) => ({ t, i }))
    .sort((a, b) => b.t.created - a.t.created || b.i - a.i)
    .map(({ t }) => t)
  const cursor = (name: 'starting_after' | 'ending_before') => {
    const id = query.get(name)
    if (id === null) return null
    const at = ordered.findIndex((t) => t.id === id)
    if (at < 0) throw invalid(`No such transfer: '${id}'`, name, 'resource_missing')
    return at
  }
  const after = cursor('starting_after')
  const before = cursor('ending_before')
  const matches = (t: LocalTransfer) =>
    (destination === null || t.destination === destination) && (group === null || t.transfer_group === group)
  const candidates = ordered
    .map((t, at) => ({ t, at }))
    .filter(({ t, at }) => matches(t) && (after === null || at > after) && (before === null || at < before))
    .map(({ t }) => t)
  // ending_before pages backwards: the `limit` transfers just before the cursor, still newest first.
  const page = before !== null && after === null ? candidates.slice(-limit) : candidates.slice(0, limit)
  return { object: 'list', url: '/v1/transfers', has_more: candidates.length > page.length, data: page }
}

/** How much a reversal takes back: all that remains, or `amount` cents of it. */
function reversalAmount(params: URLSearchParams, remaining: number): number {
  const amountParam = params.get('amount')
  if (amountParam === null) return remaining
  const amount = amountOf(amountParam)
  if (amount > remaining) {
    throw invalid(
      `Reversal amount (${amount}) is greater than the unreversed amount of the transfer (${remaining}).`,
      'amount',
    )
  }
  return amount
}

/**
 * POST /v1/transfers/{id}/reversals: takes back all that remains of a transfer or `amount` cents of it, as a
 * platform does (Stripe's API; locally the way an admin or a test reverses a payout). The transfer's
 * `amount_reversed`, `reversed` (only once the whole amount is back) and `reversals` change, and Stripe's
 * `transfer.reversed` event reports the transfer; a fully reversed transfer cannot be reversed again.
 */
export const createReversal = (state: ConnectState, transferId: string, params: URLSearchParams, key?: string) =>
  once(state, `transfers/${transferId}/reversals`, key, params, async () => {
    const transfer = state.transfers.get(transferId)
    if (!transfer) throw noSuchTransfer(transferId)
    const remaining = transfer.amount - transfer.amount_reversed
    if (remaining <= 0) throw invalid(`The transfer ${transferId} is already fully reversed.`)
    const amount = reversalAmount(params, remaining)
    const reversal: LocalReversal = {
      id: stripeId('trr'),
      object: 'transfer_reversal',
      amount,
      balance_transaction: stripeId('txn'),
      created: state.nowSeconds(),
      currency: transfer.currency,
      destination_payment_refund: stripeId('pyr'),
      metadata: metadataOf(params),
      source_refund: null,
      transfer: transfer.id,
    }
    transfer.amount_reversed += amount
    transfer.reversed = transfer.amount_reversed === transfer.amount
    transfer.reversals.data.unshift(reversal)
    transfer.reversals.total_count += 1
    // Saved with its event before the answer, as a transfer is; the event goes in the background.
    await state.deliveries.send(
      [stored('transfer', transfer.id, transfer)],
      'transfer.reversed',
      transfer,
      { idempotencyKey: key ?? null },
      false,
    )
    return reversal
  })
