/**
 * verify-subscription: body { token, email } → { success, alreadyConfirmed, expired, newsletterName, newsletterId, newsletterIds, error }
 * (a "confirm all" link's token is its request's tokens joined by dots: every one is confirmed)
 * (SPEC §7). POST only: the confirmation page calls it from JavaScript, so a mail scanner that fetches the
 * emailed link confirms nothing. Every outcome of a well-formed request is a 200 whose body says which it
 * was, so the page can render it from `data`; malformed requests are 400s.
 */
import { preflight } from '../_shared/cors.ts'
import { normalizeEmail } from '../_shared/email-address.ts'
import { clientIp, errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { takeAllowance } from '../_shared/rate-limit.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'
import { MAX_TOKENS_PER_LINK, sha256Hex, TOKEN_SEPARATOR } from '../_shared/tokens.ts'

// Per IP, 60 in 5 minutes, counted in the database (verify-subscription-ip). Tokens are 256 random bits, so the limit is
// about load, not guessing (as auth's token_verifications).

type Outcome = {
  result: 'confirmed' | 'already_confirmed' | 'expired' | 'invalid'
  newsletter_name: string | null
  campaign_id: string | null
}

const answer = (
  fields: {
    success: boolean
    alreadyConfirmed?: boolean
    expired?: boolean
    newsletterName?: string | null
    newsletterId?: string | null
    newsletterIds?: string[]
    error?: string | null
  },
  status = 200,
) =>
  json(
    {
      success: fields.success,
      alreadyConfirmed: fields.alreadyConfirmed ?? false,
      expired: fields.expired ?? false,
      newsletterName: fields.newsletterName ?? null,
      newsletterId: fields.newsletterId ?? null,
      newsletterIds: fields.newsletterIds ?? [],
      error: fields.error ?? null,
    },
    status,
  )

async function verify(req: Request): Promise<Response> {
  requirePost(req)
  const ip = clientIp(req)
  await takeAllowance('verify-subscription-ip', ip, 'Too many attempts. Please wait a few minutes and try again.')
  const body = await readJsonObject(req)
  const token = typeof body.token === 'string' ? body.token.trim() : ''
  const email = typeof body.email === 'string' ? normalizeEmail(body.email) : ''
  if (!token || !email) throw new HttpError(400, 'Invalid confirmation link')

  // A "confirm all" link carries every token of its request; a newsletter's own link carries one.
  const tokens = token.split(TOKEN_SEPARATOR).filter(Boolean)
  if (tokens.length === 0 || tokens.length > MAX_TOKENS_PER_LINK) throw new HttpError(400, 'Invalid confirmation link')
  const outcomes: Outcome[] = []
  for (const one of tokens) {
    const { data, error } = await serviceClient().rpc('confirm_subscription', {
      p_token_hash: await sha256Hex(one),
      p_email: email,
      p_ip: ip,
      p_user_agent: req.headers.get('user-agent'),
    })
    if (error) throw new Error(`confirm_subscription failed: ${error.message}`)
    outcomes.push(data as Outcome)
  }
  const names = (list: Outcome[]) =>
    list
      .map((o) => o.newsletter_name)
      .filter(Boolean)
      .join(', ') || null
  const confirmed = outcomes.filter((o) => o.result === 'confirmed')
  const already = outcomes.filter((o) => o.result === 'already_confirmed')
  const expired = outcomes.filter((o) => o.result === 'expired')
  const subscribed = [...confirmed, ...already]
  if (subscribed.length > 0) {
    return answer({
      success: true,
      alreadyConfirmed: confirmed.length === 0,
      newsletterName: names(subscribed),
      newsletterId: subscribed[0].campaign_id,
      newsletterIds: subscribed.map((o) => o.campaign_id).filter((id): id is string => Boolean(id)),
    })
  }
  if (expired.length > 0) {
    return answer({
      success: false,
      expired: true,
      newsletterName: names(expired),
      error: 'Your confirmation link has expired.',
    })
  }
  return answer({ success: false, error: 'This confirmation link is not valid.' })
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await verify(req))
  } catch (error) {
    return errorResponse(error, (message) => ({
      success: false,
      alreadyConfirmed: false,
      expired: false,
      newsletterName: null,
      newsletterId: null,
      newsletterIds: [],
      error: message,
    }))
  }
})
