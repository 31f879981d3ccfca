/**
 * decline-subscription: body { token, email } → { success, declined, alreadyConfirmed, error }
 * (the newsletters' names).
 * The reader of a confirmation email who did not ask for a newsletter declines it with the same token as its
 * confirm link ("decline all" joins the request's tokens with dots, as "confirm all" does). A declined
 * subscription is never charged and its reservation goes back, as an expiry's does (decline_subscription).
 * POST only, from the decline page's button, so a mail scanner that fetches the link declines nothing.
 * Every outcome of a well-formed request is a 200 whose body says which it was; malformed requests are 400s.
 */
import { preflight } from '../_shared/cors.ts'
import { normalizeEmail } from '../_shared/email-address.ts'
import { clientIp, errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { takeAllowance } from '../_shared/rate-limit.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'
import { MAX_TOKENS_PER_LINK, sha256Hex, TOKEN_SEPARATOR } from '../_shared/tokens.ts'

// Per IP, 60 in 5 minutes, counted in the database (decline-subscription-ip). Tokens are 256 random bits, so the limit
// is about load, not guessing (as verify-subscription's).

type Outcome = {
  result: 'declined' | 'already_confirmed' | 'invalid'
  newsletter_name: string | null
  campaign_id: string | null
}

const INVALID = 'This link is not valid.'

const answer = (
  fields: {
    success: boolean
    declined?: string[]
    alreadyConfirmed?: string[]
    error?: string | null
  },
  status = 200,
) =>
  json(
    {
      success: fields.success,
      declined: fields.declined ?? [],
      alreadyConfirmed: fields.alreadyConfirmed ?? [],
      error: fields.error ?? null,
    },
    status,
  )

async function decline(req: Request): Promise<Response> {
  requirePost(req)
  const message = 'Too many attempts. Please wait a few minutes and try again.'
  await takeAllowance('decline-subscription-ip', clientIp(req), message)
  const body = await readJsonObject(req)
  const token = typeof body.token === 'string' ? body.token.trim() : ''
  const email = typeof body.email === 'string' ? normalizeEmail(body.email) : ''
  if (!token || !email) throw new HttpError(400, INVALID)
  const tokens = token.split(TOKEN_SEPARATOR).filter(Boolean)
  if (tokens.length === 0 || tokens.length > MAX_TOKENS_PER_LINK) throw new HttpError(400, INVALID)

  const outcomes: Outcome[] = []
  for (const one of tokens) {
    const { data, error } = await serviceClient().rpc('decline_subscription', {
      p_token_hash: await sha256Hex(one),
      p_email: email,
    })
    if (error) throw new Error(`decline_subscription failed: ${error.message}`)
    outcomes.push(data as Outcome)
  }
  const names = (result: Outcome['result']) =>
    outcomes.filter((o) => o.result === result && o.newsletter_name).map((o) => o.newsletter_name as string)
  if (outcomes.every((o) => o.result === 'invalid')) return answer({ success: false, error: INVALID })
  return answer({
    success: true,
    declined: names('declined'),
    alreadyConfirmed: names('already_confirmed'),
  })
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await decline(req))
  } catch (error) {
    return errorResponse(error, (message) => ({
      success: false,
      declined: [],
      alreadyConfirmed: [],
      error: message,
    }))
  }
})
