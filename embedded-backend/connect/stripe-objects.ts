/**
 * The Stripe objects of the local Connect stand-in (Express accounts, onboarding links, transfers and their
 * reversals) in Stripe's shapes, Stripe's error answers, and the parameter readers every endpoint shares.
 * The endpoints that make and change them are in accounts.ts and transfers.ts; connect.ts puts them together.
 */
import type Stripe from 'stripe'
import { stripeId } from './deliveries'

export type CapabilityStatus = 'active' | 'inactive' | 'pending'

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

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeRequestError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` } : {}),
    ...(param ? { param } : {}),
  })
export const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing')

/** Stripe's Account Links last a few minutes; a visited or expired one sends the browser to refresh_url. */
export const LINK_LIFETIME_S = 300

/** What a new Express account still owes before it can be paid (Stripe's names for the fields). */
export const ONBOARDING_DUE = [
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

export const requirements = (due: string[], disabledReason: Stripe.Account.Requirements.DisabledReason | null) => ({
  alternatives: [],
  current_deadline: null,
  currently_due: [...due],
  disabled_reason: disabledReason,
  errors: [],
  eventually_due: [...due],
  past_due: [...due],
  pending_verification: [],
})

export function metadataOf(params: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {}
  for (const [key, value] of params) {
    const m = /^metadata\[(.+)\]$/.exec(key)
    if (m) metadata[m[1]!] = value
  }
  return metadata
}

export function requiredUrl(params: URLSearchParams, name: string): string {
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
export const canonical = (params: URLSearchParams) =>
  JSON.stringify([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** A new Express account with its onboarding ahead, as POST /v1/accounts answers it. */
export function newAccount(
  id: string,
  country: string,
  email: string | null,
  capabilities: Record<string, CapabilityStatus>,
  metadata: Record<string, string>,
  created: number,
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
    created,
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
export function completeOnboarding(
  a: LocalAccount,
  who: { ip: string | null; userAgent: string | null },
  nowSeconds: () => number,
) {
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

/** What GET /v1/transfers takes here (Stripe's `created` and `expand` are not modelled). */
export const LIST_PARAMS = new Set(['destination', 'transfer_group', 'limit', 'starting_after', 'ending_before'])

/** Stripe's list `limit`: 1 to 100, 10 when not given. */
export function listLimit(value: string | null): number {
  if (value === null) return 10
  const limit = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit)) {
    throw invalid(`Invalid integer: ${value}`, 'limit', 'parameter_invalid_integer')
  }
  if (limit < 1 || limit > 100) throw invalid('Invalid limit: must be between 1 and 100', 'limit')
  return limit
}
