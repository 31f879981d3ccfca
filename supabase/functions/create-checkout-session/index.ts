/**
 * create-checkout-session: body { amount } in credits → { url } of a Stripe Checkout page (locally, the
 * embedded backend's test checkout). Signed-in advertisers only (401 signed out, 403 other account types).
 * The session is one USD payment for the amount, carries the user in client_reference_id and metadata,
 * and sends the browser back to the wallet; a pending deposit row lets the wallet show it until the
 * payments webhook credits it. Answers 400 with a message a person can act on for any bad amount, and 429
 * when the advertiser already has 5 checkout sessions open.
 */
import { preflight } from '../_shared/cors.ts'
import { siteUrl } from '../_shared/env.ts'
import { errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { isLocalCheckout, requireStripe, Stripe, stripeClient } from '../_shared/stripe.ts'
import { serviceClient, userFacingDbMessage } from '../_shared/supabase-admin.ts'
import { returnOrigin } from '../_shared/return-origin.ts'
import { signedInUser } from '../_shared/signed-in-user.ts'
import { parseDepositCents } from './deposit-request.ts'

const WALLET_PATH = '/dashboard/advertiser/wallet'
// Stripe accepts 30 minutes to 24 hours; an hour keeps an abandoned checkout from lingering as pending all day.
const SESSION_LIFETIME_SECONDS = 60 * 60

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  requireStripe()
  const user = await signedInUser(req, 'Sign in to add funds to your wallet.')
  const cents = parseDepositCents((await readJsonObject(req)).amount)
  const amount = cents / 100
  const admin = serviceClient()
  const { data: profile, error: profileError } = await admin
    .from('profiles')
    .select('user_type')
    .eq('id', user.id)
    .maybeSingle()
  if (profileError) throw new Error(`profile lookup failed: ${profileError.message}`)
  if (profile?.user_type !== 'advertiser') {
    throw new HttpError(
      403,
      'Only advertiser accounts have a wallet to fund. Sign in with your advertiser account to add funds.',
    )
  }

  // At most 5 open checkout sessions per advertiser, asked before Stripe is (a script could open thousands).
  const { error: capError } = await admin.rpc('check_checkout_allowance', { p_user_id: user.id })
  if (capError) {
    const message = userFacingDbMessage(capError)
    if (message) throw new HttpError(429, message)
    throw new Error(`check_checkout_allowance failed: ${capError.message}`)
  }

  const origin = returnOrigin(req, siteUrl(), isLocalCheckout())
  // One key per request: the package's own network retries can never open a second session.
  const requestId = crypto.randomUUID()
  const expiresAt = Math.floor(Date.now() / 1000) + SESSION_LIFETIME_SECONDS
  const credits = amount.toFixed(2)
  const session = await stripeClient()
    .checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: cents,
              product_data: { name: `${credits} Growletter credits`, description: '1 credit = 1 US dollar' },
            },
          },
        ],
        client_reference_id: user.id,
        customer_email: user.email,
        metadata: { user_id: user.id, credits, deposit_request: requestId },
        // Stripe emails its own receipt in production; the local checkout leaves that to the webhook.
        payment_intent_data: { receipt_email: user.email, metadata: { user_id: user.id, credits } },
        success_url: `${origin}${WALLET_PATH}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${origin}${WALLET_PATH}?payment=canceled`,
        expires_at: expiresAt,
      },
      { idempotencyKey: `deposit-${requestId}` },
    )
    .catch((error: unknown) => {
      if (!(error instanceof Stripe.errors.StripeError)) throw error
      console.error('create-checkout-session: Stripe refused or failed:', error.message)
      throw new HttpError(502, 'The payment page could not be opened. Please try again in a minute.')
    })
  if (!session.url) throw new Error(`checkout session ${session.id} has no url`)

  const { error } = await admin.rpc('open_deposit', {
    p_user_id: user.id,
    p_amount: amount,
    p_session_id: session.id,
    p_expires_at: new Date(expiresAt * 1000).toISOString(),
  })
  if (error) {
    const message = userFacingDbMessage(error)
    if (message) throw new HttpError(400, message)
    throw new Error(`open_deposit failed: ${error.message}`)
  }
  // The session id lets the wallet close this deposit when the advertiser comes back through cancel_url.
  return json({ url: session.url, session_id: session.id })
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await handle(req))
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
