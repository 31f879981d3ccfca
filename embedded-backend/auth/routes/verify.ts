/**
 * GET /verify (the email link: redirect to the app with the session in the fragment, or with the
 * error) and POST /verify (`token_hash`, or `email` + `token`: the session as JSON).
 */
import type { ApiRequest } from '../../context'
import { VERIFY_TYPES, type VerifyType } from '../email-tokens'
import { AuthHttpError, httpError, json } from '../errors'
import { issuerOf, type AuthEnv, type Route } from '../env'
import { readBody, str } from '../request'
import { startSession } from '../sessions'
import { safeRedirect } from '../settings'
import { verifyEmailToken, type Proof } from '../verification'
import { phoneChangeVerify, phoneVerify } from './phone'
import { pendingAuthCode } from './pkce'

/** The PKCE flow a link of each type completes (each route records its flow with this method). */
const FLOW_METHOD: Record<VerifyType, string> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
  email: 'email/signup',
}

function verifyType(value: string | null | undefined): VerifyType {
  if (!value || !VERIFY_TYPES.includes(value as VerifyType))
    throw httpError(400, 'validation_failed', 'Verify requires a verification type')
  return value as VerifyType
}

async function verifyAndSignIn(env: AuthEnv, req: ApiRequest, type: VerifyType, proof: Proof) {
  env.limiter.take('verify', [req.ip], env.settings.rateLimit.tokenVerifications)
  const outcome = await verifyEmailToken(env.ctx.db, env.settings, type, proof)
  if (outcome.kind === 'partial') return outcome
  const session = await startSession(issuerOf(env), outcome.user, outcome.method, {
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  })
  return { ...outcome, session }
}

const redirect = (location: string) => ({
  status: 303,
  headers: { 'X-Supabase-Api-Version': '2024-01-01', Location: location },
  body: '',
})

const withFragment = (base: string, params: Record<string, string>) =>
  `${base.split('#')[0]}#${new URLSearchParams(params).toString()}`

export const verifyLinkRoute: Route = async (env, req) => {
  const redirectTo = safeRedirect(env.settings, req.query.get('redirect_to'))
  try {
    const token = req.query.get('token')
    const type = verifyType(req.query.get('type'))
    if (!token) throw httpError(400, 'validation_failed', 'Verify requires a token or a token hash')
    const result = await verifyAndSignIn(env, req, type, { tokenHash: token })
    if (result.kind === 'partial') return redirect(withFragment(redirectTo, { message: result.message }))
    const code = await pendingAuthCode(env.ctx.db, result.user.id, FLOW_METHOD[type], env.settings.otpExpiry)
    if (code) {
      const url = new URL(redirectTo)
      url.searchParams.set('code', code)
      return redirect(url.toString())
    }
    const s = result.session
    return redirect(
      withFragment(redirectTo, {
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: 'bearer',
        type,
      }),
    )
  } catch (error) {
    if (!(error instanceof AuthHttpError)) throw error
    const expired = error.code === 'otp_expired'
    return redirect(
      withFragment(redirectTo, {
        error: error.status === 429 ? 'too_many_requests' : 'access_denied',
        error_code: error.code,
        error_description: expired ? 'Email link is invalid or has expired' : error.message,
      }),
    )
  }
}

export const verifyTokenRoute: Route = async (env, req) => {
  const body = readBody(req)
  const phone = str(body, 'phone')
  const type = str(body, 'type')
  if (phone && (type === 'sms' || type === 'phone_change')) {
    const code = str(body, 'token')
    if (!code) throw httpError(400, 'validation_failed', 'Verify requires a token')
    return type === 'sms' ? phoneVerify(env, req, phone, code) : phoneChangeVerify(env, req, phone, code)
  }
  const emailType = verifyType(type)
  const hash = str(body, 'token_hash')
  const email = str(body, 'email')?.trim()
  const otp = str(body, 'token')
  let proof: Proof
  if (hash) proof = { tokenHash: hash }
  else if (email && otp) proof = { email, otp: otp.trim() }
  else throw httpError(400, 'validation_failed', 'Verify requires either a token hash or an email and a token')
  const result = await verifyAndSignIn(env, req, emailType, proof)
  if (result.kind === 'partial') return json({ msg: result.message, code: 200 })
  return json(result.session)
}
