/**
 * The Connect stand-in's accounts and their onboarding: POST /v1/accounts, POST /v1/account_links, and what the
 * onboarding page's visit and its two buttons do to an account (each change reported as `account.updated`).
 */
import { randomBytes } from 'node:crypto'
import type Stripe from 'stripe'
import { stripeId } from './deliveries'
import { accountOf, once, stored, update, type ConnectState } from './state'
import {
  completeOnboarding,
  invalid,
  LINK_LIFETIME_S,
  metadataOf,
  missing,
  newAccount,
  requiredUrl,
  requirements,
  type CapabilityStatus,
  type LocalAccount,
  type LocalLink,
} from './stripe-objects'

/** POST /v1/accounts: an Express account that still has its onboarding ahead. */
export const createAccount = (state: ConnectState, params: URLSearchParams, key?: string) =>
  once(state, 'accounts', key, params, async (idempotencyKey, request) => {
    const type = params.get('type')
    if (!type && !params.has('controller[stripe_dashboard][type]')) throw missing('type')
    if (type && type !== 'express') {
      throw invalid(`The local Connect stand-in makes Express accounts only (type=express), not type=${type}.`, 'type')
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
    const created = newAccount(id, country, email, capabilities, metadataOf(params), state.nowSeconds())
    state.accounts.set(id, created)
    await state.store.save([stored('account', id, created, idempotencyKey, request)])
    return created
  })

/**
 * An account the local database says was onboarded but the stand-in never made (the demo seed's, or one kept
 * across a rebuild of the stand-in's tables): made as a finished Express account with that id, with no event,
 * so transfers to it work as they would on Stripe. Known ids are left alone.
 */
export async function adopt(state: ConnectState, id: string, email: string | null): Promise<boolean> {
  if (state.accounts.has(id)) return false
  const adopted = newAccount(id, 'US', email, { transfers: 'inactive' }, { adopted: 'true' }, state.nowSeconds())
  completeOnboarding(adopted, { ip: null, userAgent: null }, state.nowSeconds)
  state.accounts.set(id, adopted)
  await state.store.save([stored('account', id, adopted, null, null)])
  return true
}

/** POST /v1/account_links: a short-lived, single-use link to the onboarding page. */
export async function createAccountLink(state: ConnectState, params: URLSearchParams): Promise<Stripe.AccountLink> {
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
  const target = accountOf(state, accountId)
  const link: LocalLink = {
    token: randomBytes(24).toString('base64url'),
    account: target.id,
    refresh_url: requiredUrl(params, 'refresh_url'),
    return_url: requiredUrl(params, 'return_url'),
    created: state.nowSeconds(),
    expires_at: state.nowSeconds() + LINK_LIFETIME_S,
    state: 'new',
    session: null,
  }
  state.links.set(link.token, link)
  await state.store.save([stored('account_link', link.token, link)])
  return {
    object: 'account_link',
    created: link.created,
    expires_at: link.expires_at,
    url: `${state.options.pageBaseUrl}/${target.id}/${link.token}`,
  }
}

export const linkOf = (state: ConnectState, accountId: string, token: string) => {
  const found = state.links.get(token)
  return found && found.account === accountId ? found : undefined
}

/**
 * A browser opens the link: the first visit (before it expires) starts an onboarding session bound to that
 * browser; any later visit by another browser, or after onboarding ended, is refused (→ refresh_url), as Stripe
 * refuses a link that was already visited or has expired.
 */
export async function openLink(
  state: ConnectState,
  link: LocalLink,
  session: string | undefined,
): Promise<string | null> {
  if (link.state === 'visited' && session && session === link.session) return session
  if (link.state !== 'new' || state.nowSeconds() >= link.expires_at) return null
  link.state = 'visited'
  link.session = randomBytes(18).toString('base64url')
  await state.store.save([stored('account_link', link.token, link)])
  return link.session
}

/** "Finish onboarding": details submitted, payouts on, nothing due; the webhook has answered when this returns. */
export async function finish(
  state: ConnectState,
  link: LocalLink,
  who: { ip: string; userAgent: string | null },
): Promise<LocalAccount> {
  link.state = 'used'
  await state.store.save([stored('account_link', link.token, link)])
  return update(
    state,
    link.account,
    (a) => {
      if (a.requirements.disabled_reason?.startsWith('rejected.')) return // Stripe does not reopen a rejected account.
      completeOnboarding(a, who, state.nowSeconds)
    },
    true,
  )
}

/** "Simulate a rejected account": Stripe's rejected.other; payouts and transfers off for good. */
export async function reject(state: ConnectState, link: LocalLink): Promise<LocalAccount> {
  link.state = 'used'
  await state.store.save([stored('account_link', link.token, link)])
  return update(
    state,
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
}
