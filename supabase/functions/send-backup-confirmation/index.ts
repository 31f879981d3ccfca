/**
 * send-backup-confirmation (SPEC §7, §8): body { email }. The last step of the SPA's resend chain: when the
 * account exists and its email is unconfirmed, a fresh confirmation link is made through the auth admin API
 * and sent through the functions' mailer (_shared/mailer.ts). The answer is always { success: true } and is given
 * before the lookup finishes, so neither the body nor the timing tells whether an account exists.
 */
import { preflight } from '../_shared/cors.ts'
import { canonicalEmail, isValidEmail, normalizeEmail } from '../_shared/email-address.ts'
import { siteUrl } from '../_shared/env.ts'
import { clientIp, errorResponse, HttpError, json, readJsonObject, requirePost } from '../_shared/http.ts'
import { requireEmailSettings, sendEmail } from '../_shared/mailer.ts'
import { takeAllowance } from '../_shared/rate-limit.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'
import { accountConfirmationEmail } from './account-email.ts'

type EdgeRuntimeGlobal = { EdgeRuntime?: { waitUntil(promise: Promise<unknown>): void } }

async function sendIfUnconfirmed(email: string): Promise<void> {
  const admin = serviceClient()
  // profiles.email mirrors auth.users (a trigger keeps it), indexed lookups instead of paging all users.
  const { data: profile, error } = await admin.from('profiles').select('id').eq('email', email).maybeSingle()
  if (error) throw new Error(`profile lookup failed: ${error.message}`)
  if (!profile) return
  const { data: found, error: userError } = await admin.auth.admin.getUserById(profile.id)
  if (userError) throw new Error(`user lookup failed: ${userError.message}`)
  const user = found.user
  if (!user?.email || user.email_confirmed_at) return
  // For an unconfirmed user GoTrue's magic link is a signup confirmation: following it confirms the email.
  const { data: link, error: linkError } = await admin.auth.admin.generateLink({
    type: 'magiclink',
    email: user.email,
    options: { redirectTo: `${siteUrl()}/dashboard` },
  })
  if (linkError) throw new Error(`generate_link failed: ${linkError.message}`)
  await sendEmail(accountConfirmationEmail(user.email, link.properties.action_link))
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  requireEmailSettings()
  // Per IP (20 an hour) and per inbox (3 an hour), counted in the database: every isolate sees one count.
  await takeAllowance('backup-confirmation-ip', clientIp(req), TOO_MANY)
  const body = await readJsonObject(req)
  const email = typeof body.email === 'string' ? normalizeEmail(body.email) : ''
  if (!isValidEmail(email)) throw new HttpError(400, 'Please enter a valid email address')
  // Counted for every address alike, so a 429 says nothing about whether the account exists; per inbox
  // (canonical: Gmail's dots and googlemail.com are one inbox).
  await takeAllowance('backup-confirmation-inbox', canonicalEmail(email), TOO_MANY)

  const work = sendIfUnconfirmed(email).catch((error) => console.error('send-backup-confirmation:', error))
  ;(globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil(work)
  return json({ success: true })
}

const TOO_MANY = 'Too many requests. Please wait a few minutes and try again.'

Deno.serve(async (req) => {
  try {
    return preflight(req) ?? (await handle(req))
  } catch (error) {
    return errorResponse(error, (message) => ({ success: false, error: message }))
  }
})
