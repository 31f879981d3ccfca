/**
 * subscribe: body { email, campaignIds, audienceSourceId?, clickId?, clickToken? } → pending subscriptions (one fresh
 * token per newsletter, only its sha256 stored) and ONE email listing every newsletter: a confirmation link
 * for each pending one, a note for each one the address already subscribes to (only an informational email
 * when that is all of them). Answers { success: true, pending: [{ campaignId, newsletterName }] } listing
 * every newsletter asked for, the same whether or not the address already subscribes: only the inbox's
 * owner learns that, from the email. The database function is all or nothing; if the email then fails, the
 * rows stay pending and a new request re-arms them with new tokens.
 */
import { siteUrl } from '../_shared/env.ts'
import { clientIp, errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { preflight } from '../_shared/cors.ts'
import { requireEmailSettings, sendEmail } from '../_shared/mailer.ts'
import { takeAllowance } from '../_shared/rate-limit.ts'
import { serviceClient, userFacingDbMessage } from '../_shared/supabase-admin.ts'
import { newToken, sha256Hex, TOKEN_SEPARATOR } from '../_shared/tokens.ts'
import { confirmationEmail } from './confirmation-email.ts'
import { parseSubscribeRequest } from './parse-request.ts'

// Per IP (30 in 15 minutes, subscribe-ip) and per inbox (PRODUCT.md: at most 3 emails an hour, by canonical address:
// +tags, Gmail dots and googlemail.com are one inbox), both counted in the database so every isolate sees one count.

type Row = { campaign_id: string; campaign_name: string; result: 'pending' | 'already_confirmed' | 'rejected' }

async function subscribe(req: Request): Promise<Response> {
  requirePost(req)
  requireEmailSettings()
  const ip = clientIp(req)
  await takeAllowance('subscribe-ip', ip, 'Too many subscription requests. Please try again in a few minutes.')
  const input = parseSubscribeRequest(await readJsonObject(req))
  const { data: wait, error: limitError } = await serviceClient().rpc('take_confirmation_email_allowance', {
    p_email: input.email,
  })
  if (limitError) throw new Error(`take_confirmation_email_allowance failed: ${limitError.message}`)
  if (typeof wait === 'number' && wait > 0) {
    throw tooMany('Too many confirmation emails for this address. Please try again later.', wait)
  }

  const tokens = input.campaignIds.map(() => newToken())
  const { data, error } = await serviceClient().rpc('create_pending_subscriptions', {
    p_email: input.email,
    p_campaign_ids: input.campaignIds,
    p_token_hashes: await Promise.all(tokens.map(sha256Hex)),
    p_audience_source_id: input.audienceSourceId,
    p_click_id: input.clickId,
    p_ip: ip,
    p_user_agent: req.headers.get('user-agent'),
    p_click_token: input.clickToken,
  })
  if (error) {
    const message = userFacingDbMessage(error)
    if (message) throw new HttpError(400, message)
    throw new Error(`create_pending_subscriptions failed: ${error.message}`)
  }

  const rows = data as Row[]
  const tokenFor = new Map(input.campaignIds.map((id, i) => [id, tokens[i]]))
  const pending = rows.filter((r) => r.result === 'pending')
  const alreadyConfirmed = rows.filter((r) => r.result === 'already_confirmed')
  // A fraud-rejected address is sent nothing about that newsletter; the answer is the same as for anyone.
  if (pending.length + alreadyConfirmed.length > 0) {
    const lines = [...pending, ...alreadyConfirmed].map((r) => ({
      newsletterName: r.campaign_name,
      confirmUrl: r.result === 'pending' ? linkTo(CONFIRM_PATH, tokenFor.get(r.campaign_id)!, input.email) : undefined,
      declineUrl: r.result === 'pending' ? linkTo(DECLINE_PATH, tokenFor.get(r.campaign_id)!, input.email) : undefined,
    }))
    // One click confirms (or declines) every newsletter of the request: the link carries each pending one's token.
    const allTokens = pending.map((r) => tokenFor.get(r.campaign_id)!).join(TOKEN_SEPARATOR)
    const all =
      pending.length > 1
        ? {
            confirmAllUrl: linkTo(CONFIRM_PATH, allTokens, input.email),
            declineAllUrl: linkTo(DECLINE_PATH, allTokens, input.email),
          }
        : undefined
    try {
      await sendEmail(confirmationEmail(input.email, lines, all))
    } catch (sendError) {
      console.error('subscribe: confirmation email failed', sendError)
      throw new HttpError(500, 'We could not send the confirmation email. Please try again in a few minutes.')
    }
  }
  const view = (r: Row) => ({ campaignId: r.campaign_id, newsletterName: r.campaign_name })
  return json({ success: true, pending: rows.map(view) })
}

// The SPA's pages for the links (src/config/paths.ts confirmSubscription and declineSubscription).
const CONFIRM_PATH = '/confirm-subscription'
const DECLINE_PATH = '/decline-subscription'

function linkTo(path: string, token: string, email: string): string {
  const query = new URLSearchParams({ token, email })
  return `${siteUrl()}${path}?${query}`
}

function tooMany(message: string, retryAfterSeconds: number): HttpError {
  return new HttpError(429, message, { 'Retry-After': String(retryAfterSeconds) })
}

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await subscribe(req))
  } catch (error) {
    return errorResponse(error, (message) => ({ success: false, error: message }))
  }
})
