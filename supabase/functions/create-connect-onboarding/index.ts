/**
 * create-connect-onboarding: body `{}` → `{ url }` of Stripe's hosted onboarding for the signed-in publisher's
 * Express account (locally, the embedded backend's Connect stand-in). The account is made once per publisher
 * (`stripe.accounts.create`, type express, transfers requested; an idempotency key per publisher, and
 * link_payout_account keeps the first if two calls race) and recorded for connect-webhook to keep current; every
 * call makes a fresh account link, so the same button starts and resumes onboarding. Stripe sends the browser back
 * to the payouts page: `?onboarding=return` when the publisher is done, `?onboarding=refresh` when the link expired.
 * 401 signed out, 403 not a publisher, 502 when Stripe cannot be reached.
 */
import { preflight } from '../_shared/cors.ts'
import { siteUrl } from '../_shared/env.ts'
import { errorResponse, HttpError, json, requirePost } from '../_shared/http.ts'
import { returnOrigin } from '../_shared/return-origin.ts'
import { signedInUser } from '../_shared/signed-in-user.ts'
import { isLocalCheckout, requireStripe, Stripe, stripeClient } from '../_shared/stripe.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

const PAYOUTS_PATH = '/dashboard/publisher/payouts'

function stripeFailed(error: unknown): never {
  if (!(error instanceof Stripe.errors.StripeError)) throw error
  console.error('create-connect-onboarding: Stripe refused or failed:', error.message)
  throw new HttpError(502, 'Payout setup could not be opened. Please try again in a minute.')
}

async function accountOf(user: { id: string; email: string }): Promise<string> {
  const admin = serviceClient()
  const { data: existing, error } = await admin
    .from('payout_accounts')
    .select('stripe_account_id')
    .eq('publisher_id', user.id)
    .maybeSingle()
  if (error) throw new Error(`payout account lookup failed: ${error.message}`)
  if (existing) return existing.stripe_account_id as string
  const account = await stripeClient()
    .accounts.create(
      {
        type: 'express',
        email: user.email,
        capabilities: { transfers: { requested: true } },
        metadata: { user_id: user.id },
      },
      { idempotencyKey: `connect-account-${user.id}` },
    )
    .catch(stripeFailed)
  const linked = await admin.rpc('link_payout_account', { p_publisher_id: user.id, p_account_id: account.id })
  if (linked.error) throw new Error(`link_payout_account failed: ${linked.error.message}`)
  return linked.data as string
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  requireStripe()
  const user = await signedInUser(req, 'Sign in to set up payouts.')
  const { data: profile, error } = await serviceClient()
    .from('profiles')
    .select('user_type')
    .eq('id', user.id)
    .maybeSingle()
  if (error) throw new Error(`profile lookup failed: ${error.message}`)
  if (profile?.user_type !== 'publisher') {
    throw new HttpError(
      403,
      'Only publisher accounts are paid out. Sign in with your publisher account to set up payouts.',
    )
  }
  const account = await accountOf(user)
  const origin = returnOrigin(req, siteUrl(), isLocalCheckout())
  const link = await stripeClient()
    .accountLinks.create({
      account,
      type: 'account_onboarding',
      refresh_url: `${origin}${PAYOUTS_PATH}?onboarding=refresh`,
      return_url: `${origin}${PAYOUTS_PATH}?onboarding=return`,
    })
    .catch(stripeFailed)
  return json({ url: link.url })
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await handle(req))
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
