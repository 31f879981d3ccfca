/**
 * The state of the local Stripe Connect stand-in: Express accounts, their onboarding links and the transfers made to
 * them, in Stripe's object shapes, made from the form-encoded parameters the stripe package sends. Onboarding is
 * finished or rejected on the stand-in's page (page.ts); every change of an account is reported as `account.updated`,
 * every transfer as `transfer.created` and every reversal of one as `transfer.reversed` (deliveries.ts). A transfer to
 * an account whose `transfers` capability is not active (never onboarded, or rejected) is refused with Stripe's error,
 * and no event, as Stripe refuses it: the request fails before anything is made. Transfers are listed as Stripe lists
 * them: newest first, by destination, a page at a time (`limit`, `starting_after`, `ending_before`).
 */
import { randomBytes } from 'node:crypto'
import type Stripe from 'stripe'
import { createDeliveries, stripeId, type DeliveryOptions } from './deliveries'
import { memoryStore, type ConnectStore, type ObjectKind, type StoredObject } from './store'

type CapabilityStatus = 'active' | 'inactive' | 'pending'

/** The Account object as the stand-in answers it: Stripe's fields for an Express account (a subset of Stripe.Account). */
export type LocalAccount = Pick<
  Stripe.Account,
  'id' | 'object' | 'charges_enabled' | 'payouts_enabled' | 'details_submitted' | 'email' | 'created' | 'country'
> & {
  type: 'express'
  default_currency: string
  business_type: 'individual' | null
  capabilities: Record<string, CapabilityStatus>
  metadata: Record<string, string>
  requirements: Stripe.Account.Requirements
  future_requirements: Stripe.Account.FutureRequirements
  tos_acceptance: { date: number | null; ip: string | null; user_agent: string | null }
  external_accounts: {
    object: 'list'
    data: Array<{
      id: string
      object: 'bank_account'
      account: string
      bank_name: string
      country: string
      currency: string
      last4: string
      status: string
    }>
    has_more: false
    total_count: number
    url: string
  }
  controller: {
    type: 'application'
    is_controller: true
    stripe_dashboard: { type: 'express' }
    requirement_collection: 'stripe'
  }
}

export type LocalTransfer = Pick<
  Stripe.Transfer,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_reversed'
  | 'created'
  | 'currency'
  | 'description'
  | 'livemode'
  | 'reversed'
  | 'source_transaction'
  | 'transfer_group'
> & {
  balance_transaction: string
  destination: string
  destination_payment: string
  metadata: Record<string, string>
  reversals: { object: 'list'; data: LocalReversal[]; has_more: boolean; total_count: number; url: string }
}

/** A transfer reversal as POST /v1/transfers/{id}/reversals answers it (Stripe's TransferReversal object). */
export type LocalReversal = {
  id: string
  object: 'transfer_reversal'
  amount: number
  balance_transaction: string
  created: number
  currency: string
  destination_payment_refund: string
  metadata: Record<string, string>
  source_refund: null
  transfer: string
}

/** A page of Stripe's list endpoints (`GET /v1/transfers`). */
export type StripeList<T> = { object: 'list'; url: string; has_more: boolean; data: T[] }

/** An onboarding link and what became of it; `session` is the browser that opened it (a cookie). */
export type LocalLink = {
  token: string
  account: string
  refresh_url: string
  return_url: string
  created: number
  expires_at: number
  state: 'new' | 'visited' | 'used'
  session: string | null
}

/** Stripe's error body; the stripe package turns it into a StripeInvalidRequestError (or the type given). */
export type StripeErrorBody = { type: string; message: string; code?: string; param?: string; doc_url?: string }

export class StripeRequestError extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeErrorBody,
  ) {
    super(error.message)
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new StripeRequestError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` } : {}),
    ...(param ? { param } : {}),
  })
const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing')

/** Stripe's Account Links last a few minutes; a visited or expired one sends the browser to refresh_url. */
export const LINK_LIFETIME_S = 300

/** What a new Express account still owes before it can be paid (Stripe's names for the fields). */
const ONBOARDING_DUE = [
  'business_profile.mcc',
  'business_profile.url',
  'business_type',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'individual.ssn_last_4',
  'tos_acceptance.date',
  'tos_acceptance.ip',
]

const requirements = (due: string[], disabledReason: Stripe.Account.Requirements.DisabledReason | null) => ({
  alternatives: [],
  current_deadline: null,
  currently_due: [...due],
  disabled_reason: disabledReason,
  errors: [],
  eventually_due: [...due],
  past_due: [...due],
  pending_verification: [],
})

function metadataOf(params: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const [key, value] of params) {
    const m = /^metadata\[(.+)\]$/.exec(key)
    if (m) metadata[m[1]!] = value
  }
  return metadata
}

function requiredUrl(params: URLSearchParams, name: string): string {
  const value = params.get(name)
  if (!value) throw missing(name)
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme')
  } catch {
    throw invalid(`Not a valid URL: ${name}.`, name, 'url_invalid')
  }
  return value
}

/** The request's parameters in a stable order: an idempotency key names exactly one request. */
const canonical = (params: URLSearchParams) =>
  JSON.stringify([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

export type ConnectOptions = Omit<DeliveryOptions, 'store'> & {
  /** Where the onboarding page is served, e.g. http://127.0.0.1:54321/checkout/connect */
  pageBaseUrl: string
  store?: ConnectStore
  /** The clock (epoch ms); tests move it to expire links. */
  now?: () => number
}

export function createConnect(options: ConnectOptions) {
  const store = options.store ?? memoryStore()
  const deliveries = createDeliveries({ ...options, store })
  const now = options.now ?? Date.now
  const nowSeconds = () => Math.floor(now() / 1000)

  /** A new Express account with its onboarding ahead, as POST /v1/accounts answers it. */
  function newAccount(
    id: string,
    country: string,
    email: string | null,
    capabilities: Record<string, CapabilityStatus>,
    metadata: Record<string, string>,
  ): LocalAccount {
    return {
      id,
      object: 'account',
      type: 'express',
      business_type: null,
      capabilities,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      controller: {
        type: 'application',
        is_controller: true,
        stripe_dashboard: { type: 'express' },
        requirement_collection: 'stripe',
      },
      country,
      created: nowSeconds(),
      default_currency: 'usd',
      email,
      external_accounts: {
        object: 'list',
        data: [],
        has_more: false,
        total_count: 0,
        url: `/v1/accounts/${id}/external_accounts`,
      },
      metadata,
      requirements: requirements(ONBOARDING_DUE, 'requirements.past_due'),
      future_requirements: requirements([], null),
      tos_acceptance: { date: null, ip: null, user_agent: null },
    }
  }

  /** What "Finish onboarding" does to an account: details submitted, payouts and every capability on, a test bank. */
  function completeOnboarding(a: LocalAccount, who: { ip: string | null; userAgent: string | null }) {
    a.details_submitted = true
    a.payouts_enabled = true
    a.charges_enabled = a.capabilities.card_payments !== undefined
    for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'active'
    a.business_type = 'individual'
    a.requirements = requirements([], null)
    if (a.tos_acceptance.date === null) a.tos_acceptance = { date: nowSeconds(), ip: who.ip, user_agent: who.userAgent }
    if (a.external_accounts.data.length === 0) {
      a.external_accounts.data.push({
        id: stripeId('ba'),
        object: 'bank_account',
        account: a.id,
        bank_name: 'STRIPE TEST BANK',
        country: a.country ?? 'US',
        currency: a.default_currency,
        last4: '6789',
        status: 'new',
      })
      a.external_accounts.total_count = 1
    }
  }
  const accounts = new Map<string, LocalAccount>()
  const transfers = new Map<string, LocalTransfer>()
  const links = new Map<string, LocalLink>()
  /** Per endpoint: key → the request's parameters and its answer (a promise, so a concurrent retry shares it). */
  const idempotent = new Map<string, { params: string; result: Promise<{ id: string }> }>()

  const stored = (
    kind: ObjectKind,
    id: string,
    body: unknown,
    key: string | null = null,
    params: string | null = null,
  ): StoredObject => ({
    kind,
    id,
    body,
    idempotencyKey: key,
    requestParams: params,
  })

  /**
   * Runs a create once per Idempotency-Key, as Stripe does: the same key with the same parameters answers the first
   * result again (`replayed`); with other parameters it is Stripe's idempotency_error. A request refused before
   * anything was made (a validation error) is not remembered, as Stripe saves no result for it.
   */
  async function once<T extends { id: string }>(
    endpoint: string,
    key: string | undefined,
    params: URLSearchParams,
    make: (key: string | null, params: string) => Promise<T>,
  ): Promise<{ object: T; replayed: boolean }> {
    const request = canonical(params)
    if (!key) return { object: await make(null, request), replayed: false }
    const slot = `${endpoint} ${key}`
    const earlier = idempotent.get(slot)
    if (earlier) {
      if (earlier.params !== request) {
        throw new StripeRequestError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        })
      }
      return { object: (await earlier.result) as T, replayed: true }
    }
    const result = make(key, request)
    idempotent.set(slot, { params: request, result })
    try {
      return { object: await result, replayed: false }
    } catch (error) {
      idempotent.delete(slot)
      throw error
    }
  }

  function account(id: string): LocalAccount {
    const found = accounts.get(id)
    if (!found)
      throw new StripeRequestError(404, {
        type: 'invalid_request_error',
        message: `No such account: '${id}'`,
        code: 'resource_missing',
        param: 'account',
      })
    return found
  }

  /** Applies a change to an account, saves it with its account.updated event (previous_attributes as Stripe sends). */
  async function update(id: string, change: (a: LocalAccount) => void, wait: boolean): Promise<LocalAccount> {
    const current = account(id)
    const before = structuredClone(current)
    change(current)
    const previous: Record<string, unknown> = {}
    for (const key of Object.keys(current) as Array<keyof LocalAccount>) {
      if (JSON.stringify(before[key]) !== JSON.stringify(current[key])) previous[key] = before[key]
    }
    if (Object.keys(previous).length === 0) return current
    await deliveries.send(
      [stored('account', id, current)],
      'account.updated',
      current,
      { account: id, previousAttributes: previous },
      wait,
    )
    return current
  }

  return {
    /** What was saved before the last stop comes back, and every event still owed is sent again. */
    async resume(): Promise<void> {
      const saved = await store.load()
      for (const o of saved.objects) {
        if (o.kind === 'account') accounts.set(o.id, o.body as LocalAccount)
        else if (o.kind === 'transfer') transfers.set(o.id, o.body as LocalTransfer)
        else links.set(o.id, o.body as LocalLink)
        const endpoint = o.kind === 'account' ? 'accounts' : o.kind === 'transfer' ? 'transfers' : null
        if (endpoint && o.idempotencyKey && o.requestParams) {
          idempotent.set(`${endpoint} ${o.idempotencyKey}`, {
            params: o.requestParams,
            result: Promise.resolve(o.body as { id: string }),
          })
        }
      }
      deliveries.resume(saved.deliveries)
    },

    /** POST /v1/accounts: an Express account that still has its onboarding ahead. */
    createAccount: (params: URLSearchParams, key?: string) =>
      once('accounts', key, params, async (idempotencyKey, request) => {
        const type = params.get('type')
        if (!type && !params.has('controller[stripe_dashboard][type]')) throw missing('type')
        if (type && type !== 'express') {
          throw invalid(
            `The local Connect stand-in makes Express accounts only (type=express), not type=${type}.`,
            'type',
          )
        }
        const country = (params.get('country') ?? 'US').toUpperCase()
        if (!/^[A-Z]{2}$/.test(country))
          throw invalid(
            `Country '${country}' is unknown. Use a two-letter code such as US.`,
            'country',
            'country_unsupported',
          )
        const email = params.get('email')
        if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
          throw invalid('Invalid email address: ' + email, 'email', 'email_invalid')
        const capabilities: Record<string, CapabilityStatus> = {}
        for (const [name, value] of params) {
          const m = /^capabilities\[([a-z_]+)\]\[requested\]$/.exec(name)
          if (m && value === 'true') capabilities[m[1]!] = 'inactive'
        }
        const id = stripeId('acct')
        const created = newAccount(id, country, email, capabilities, metadataOf(params))
        accounts.set(id, created)
        await store.save([stored('account', id, created, idempotencyKey, request)])
        return created
      }),

    /**
     * An account the local database says was onboarded but the stand-in never made (the demo seed's, or one kept
     * across a rebuild of the stand-in's tables): made as a finished Express account with that id, with no event,
     * so transfers to it work as they would on Stripe. Known ids are left alone.
     */
    async adopt(id: string, email: string | null): Promise<boolean> {
      if (accounts.has(id)) return false
      const adopted = newAccount(id, 'US', email, { transfers: 'inactive' }, { adopted: 'true' })
      completeOnboarding(adopted, { ip: null, userAgent: null })
      accounts.set(id, adopted)
      await store.save([stored('account', id, adopted, null, null)])
      return true
    },

    getAccount: (id: string) => account(id),

    /** POST /v1/account_links: a short-lived, single-use link to the onboarding page. */
    async createAccountLink(params: URLSearchParams): Promise<Stripe.AccountLink> {
      const accountId = params.get('account')
      if (!accountId) throw missing('account')
      const type = params.get('type')
      if (!type) throw missing('type')
      if (type !== 'account_onboarding') {
        throw invalid(
          `The local Connect stand-in makes account_onboarding links only, not type=${type} (Express accounts have no account_update links).`,
          'type',
        )
      }
      const target = account(accountId)
      const link: LocalLink = {
        token: randomBytes(24).toString('base64url'),
        account: target.id,
        refresh_url: requiredUrl(params, 'refresh_url'),
        return_url: requiredUrl(params, 'return_url'),
        created: nowSeconds(),
        expires_at: nowSeconds() + LINK_LIFETIME_S,
        state: 'new',
        session: null,
      }
      links.set(link.token, link)
      await store.save([stored('account_link', link.token, link)])
      return {
        object: 'account_link',
        created: link.created,
        expires_at: link.expires_at,
        url: `${options.pageBaseUrl}/${target.id}/${link.token}`,
      }
    },

    link: (accountId: string, token: string) => {
      const found = links.get(token)
      return found && found.account === accountId ? found : undefined
    },

    /**
     * A browser opens the link: the first visit (before it expires) starts an onboarding session bound to that
     * browser; any later visit by another browser, or after onboarding ended, is refused (→ refresh_url), as Stripe
     * refuses a link that was already visited or has expired.
     */
    async open(link: LocalLink, session: string | undefined): Promise<string | null> {
      if (link.state === 'visited' && session && session === link.session) return session
      if (link.state !== 'new' || nowSeconds() >= link.expires_at) return null
      link.state = 'visited'
      link.session = randomBytes(18).toString('base64url')
      await store.save([stored('account_link', link.token, link)])
      return link.session
    },

    /** "Finish onboarding": details submitted, payouts on, nothing due; the webhook has answered when this returns. */
    async finish(link: LocalLink, who: { ip: string; userAgent: string | null }): Promise<LocalAccount> {
      link.state = 'used'
      await store.save([stored('account_link', link.token, link)])
      return update(
        link.account,
        (a) => {
          if (a.requirements.disabled_reason?.startsWith('rejected.')) return // Stripe does not reopen a rejected account.
          completeOnboarding(a, who)
        },
        true,
      )
    },

    /** "Simulate a rejected account": Stripe's rejected.other; payouts and transfers off for good. */
    async reject(link: LocalLink): Promise<LocalAccount> {
      link.state = 'used'
      await store.save([stored('account_link', link.token, link)])
      return update(
        link.account,
        (a) => {
          a.details_submitted = true
          a.payouts_enabled = false
          a.charges_enabled = false
          for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'inactive'
          a.requirements = requirements([], 'rejected.other')
        },
        true,
      )
    },

    /** POST /v1/transfers: money to a connected account whose transfers capability is active, else Stripe's error. */
    createTransfer: (params: URLSearchParams, key?: string) =>
      once('transfers', key, params, async (idempotencyKey, request) => {
        const amountParam = params.get('amount')
        if (amountParam === null) throw missing('amount')
        const amount = Number(amountParam)
        if (!/^\d+$/.test(amountParam) || !Number.isSafeInteger(amount)) {
          throw invalid(`Invalid integer: ${amountParam}`, 'amount', 'parameter_invalid_integer')
        }
        if (amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount', 'amount_too_small')
        const currency = params.get('currency')?.toLowerCase()
        if (!currency) throw missing('currency')
        if (currency !== 'usd')
          throw invalid(`The local Connect stand-in transfers usd only, not ${currency}.`, 'currency')
        const destinationId = params.get('destination')
        if (!destinationId) throw missing('destination')
        const destination = accounts.get(destinationId)
        if (!destination) throw invalid(`No such destination: '${destinationId}'`, 'destination', 'resource_missing')
        if (destination.capabilities.transfers !== 'active') {
          // Stripe's answer when the destination cannot receive transfers (not onboarded, restricted or rejected).
          throw invalid(
            'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
            'destination',
            'insufficient_capabilities_for_transfer',
          )
        }
        const id = stripeId('tr')
        const transfer: LocalTransfer = {
          id,
          object: 'transfer',
          amount,
          amount_reversed: 0,
          balance_transaction: stripeId('txn'),
          created: nowSeconds(),
          currency,
          description: params.get('description'),
          destination: destination.id,
          destination_payment: stripeId('py'),
          livemode: false,
          metadata: metadataOf(params),
          reversals: {
            object: 'list',
            data: [],
            has_more: false,
            total_count: 0,
            url: `/v1/transfers/${id}/reversals`,
          },
          reversed: false,
          source_transaction: null,
          transfer_group: params.get('transfer_group'),
        }
        transfers.set(id, transfer)
        // Saved with its event before the answer; the event itself goes in the background (the caller of
        // /v1/transfers must not wait on its own webhook, which may wait on the caller's transaction).
        await deliveries.send(
          [stored('transfer', id, transfer, idempotencyKey, request)],
          'transfer.created',
          transfer,
          { idempotencyKey },
          false,
        )
        return transfer
      }),

    getTransfer(id: string): LocalTransfer {
      const found = transfers.get(id)
      if (!found)
        throw new StripeRequestError(404, {
          type: 'invalid_request_error',
          message: `No such transfer: '${id}'`,
          code: 'resource_missing',
          param: 'id',
        })
      return found
    },

    /** GET /v1/transfers: newest first, filtered by destination or transfer group, a page of `limit` (1–100). */
    listTransfers(query: URLSearchParams): StripeList<LocalTransfer> {
      for (const name of query.keys()) {
        if (!LIST_PARAMS.has(name)) throw invalid(`Received unknown parameter: ${name}`, name, 'parameter_unknown')
      }
      const limit = listLimit(query.get('limit'))
      const destination = query.get('destination')
      const group = query.get('transfer_group')
      // Newest first; transfers made in the same second in the order they were made, newest first.
      const ordered = [...transfers.values()]
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
    },

    /**
     * POST /v1/transfers/{id}/reversals: takes back all that remains of a transfer or `amount` cents of it, as a
     * platform does (Stripe's API; locally the way an admin or a test reverses a payout). The transfer's
     * `amount_reversed`, `reversed` (only once the whole amount is back) and `reversals` change, and Stripe's
     * `transfer.reversed` event reports the transfer; a fully reversed transfer cannot be reversed again.
     */
    createReversal: (transferId: string, params: URLSearchParams, key?: string) =>
      once(`transfers/${transferId}/reversals`, key, params, async () => {
        const transfer = transfers.get(transferId)
        if (!transfer)
          throw new StripeRequestError(404, {
            type: 'invalid_request_error',
            message: `No such transfer: '${transferId}'`,
            code: 'resource_missing',
            param: 'id',
          })
        const remaining = transfer.amount - transfer.amount_reversed
        if (remaining <= 0) throw invalid(`The transfer ${transferId} is already fully reversed.`)
        const amountParam = params.get('amount')
        let amount = remaining
        if (amountParam !== null) {
          amount = Number(amountParam)
          if (!/^\d+$/.test(amountParam) || !Number.isSafeInteger(amount)) {
            throw invalid(`Invalid integer: ${amountParam}`, 'amount', 'parameter_invalid_integer')
          }
          if (amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount', 'amount_too_small')
          if (amount > remaining) {
            throw invalid(
              `Reversal amount (${amount}) is greater than the unreversed amount of the transfer (${remaining}).`,
              'amount',
            )
          }
        }
        const reversal: LocalReversal = {
          id: stripeId('trr'),
          object: 'transfer_reversal',
          amount,
          balance_transaction: stripeId('txn'),
          created: nowSeconds(),
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
        await deliveries.send(
          [stored('transfer', transfer.id, transfer)],
          'transfer.reversed',
          transfer,
          { idempotencyKey: key ?? null },
          false,
        )
        return reversal
      }),

    close: () => deliveries.close(),
  }
}

/** What GET /v1/transfers takes here (Stripe's `created` and `expand` are not modelled). */
const LIST_PARAMS = new Set(['destination', 'transfer_group', 'limit', 'starting_after', 'ending_before'])

/** Stripe's list `limit`: 1 to 100, 10 when not given. */
function listLimit(value: string | null): number {
  if (value === null) return 10
  const limit = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit)) {
    throw invalid(`Invalid integer: ${value}`, 'limit', 'parameter_invalid_integer')
  }
  if (limit < 1 || limit > 100) throw invalid('Invalid limit: must be between 1 and 100', 'limit')
  return limit
}

export type Connect = ReturnType<typeof createConnect>
