/**
 * TOTP multi-factor auth: enroll (secret, otpauth URI, QR code), challenge, verify (the session is
 * raised to aal2 and `totp` joins its amr), unenroll. A user with a verified factor must be at aal2
 * to add, verify or remove factors, so a stolen password alone can neither strip the second factor nor
 * plant its own. Verifying a factor deletes the user's other unverified factors (GoTrue's
 * DeleteUnverifiedFactors), so a factor planted while the owner was setting theirs up dies then; and
 * the first verified factor ends the user's aal1 sessions (GoTrue's InvalidateSessionsWithAALLessThan,
 * which GoTrue runs on every verification; here only when two-factor is switched on, so a second tab
 * stepping up does not sign out a tab that is mid-sign-in). Against guessing
 * the code: challenge and verify are rate limited per IP and factor, a challenge dies after
 * MAX_CHALLENGE_ATTEMPTS codes, and a code (its time step) is accepted once per factor.
 */
import { randomUUID } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import { errors, httpError, json } from '../errors'
import { issuerOf, type AuthEnv, type Route } from '../env'
import { MINUTE_MS } from '../rate-limit'
import { readBody, requireUser, str } from '../request'
import { inetOrNull, upgradeSession } from '../sessions'

const CHALLENGE_TTL_SECONDS = 300
export const MAX_CHALLENGE_ATTEMPTS = 5
const TOTP_PERIOD_SECONDS = 30

/** GoTrue limits challenge and verify per IP; the factor is a key too, so many IPs share one allowance. */
function limitMfa(env: AuthEnv, bucket: string, ip: string, factorId: string) {
  env.limiter.take(
    bucket,
    [ip, `factor ${factorId}`],
    env.settings.mfa.challengeAndVerifyPerMinute,
    'request',
    MINUTE_MS,
  )
}

type FactorRow = {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: string
  status: string
  secret: string
}

const factorNotFound = () => httpError(404, 'mfa_factor_not_found', 'Factor not found')

async function ownFactor(env: Parameters<Route>[0], userId: string, id: string): Promise<FactorRow> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw factorNotFound()
  const row = (
    await env.ctx.db.query<FactorRow>('select * from auth.mfa_factors where id = $1 and user_id = $2', [id, userId])
  ).rows[0]
  if (!row) throw factorNotFound()
  return row
}

async function verifiedCount(env: Parameters<Route>[0], userId: string) {
  const r = await env.ctx.db.query<{ n: number }>(
    "select count(*)::int as n from auth.mfa_factors where user_id = $1 and status = 'verified'",
    [userId],
  )
  return r.rows[0]?.n ?? 0
}

/**
 * An unverified factor may be challenged and verified by an aal1 session only while the user has no
 * verified factor: otherwise a password alone could turn a factor it planted into a way past the real one.
 */
async function assertMayVerify(env: Parameters<Route>[0], factor: FactorRow, aal: string) {
  if (factor.status === 'verified' || aal === 'aal2') return
  if ((await verifiedCount(env, factor.user_id)) > 0) {
    throw errors.insufficientAal('AAL2 required to verify a new factor while another factor is verified')
  }
}

export const enroll: Route = async (env, req) => {
  const { user, session } = await requireUser(env.ctx.db, req)
  const body = readBody(req)
  const type = str(body, 'factor_type') ?? 'totp'
  if (type !== 'totp')
    throw httpError(
      422,
      `mfa_${type === 'phone' ? 'phone' : 'webauthn'}_enroll_not_enabled`,
      `MFA enroll is disabled for ${type}`,
    )
  if (!env.settings.mfa.totpEnroll)
    throw httpError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP')
  const db = env.ctx.db
  const all = (await db.query<FactorRow>('select * from auth.mfa_factors where user_id = $1', [user.id])).rows
  if (all.length >= env.settings.mfa.maxFactors) {
    throw httpError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    )
  }
  if (all.some((f) => f.status === 'verified') && session.aal !== 'aal2') {
    throw errors.insufficientAal('AAL2 required to enroll a new factor')
  }
  const friendlyName = str(body, 'friendly_name') ?? ''
  if (friendlyName && all.some((f) => f.friendly_name === friendlyName)) {
    throw httpError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    )
  }
  const secret = new Secret({ size: 20 })
  const totp = new TOTP({ issuer: str(body, 'issuer') || 'Growletter', label: user.email ?? user.id, secret })
  const uri = totp.toString()
  const id = randomUUID()
  // As GoTrue: both timestamps (NOT NULL, no default) and '' for no friendly name (GoTrue reads it into a string).
  await db.query(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at)
     values ($1, $2, $3, 'totp', 'unverified', $4, now(), now())`,
    [id, user.id, friendlyName, secret.base32],
  )
  // Raw SVG, as GoTrue sends it: supabase-js itself prefixes `data:image/svg+xml;utf-8,`.
  const qr = await QRCode.toString(uri, { type: 'svg', margin: 1 })
  return json({ id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qr, secret: secret.base32, uri } })
}

export const challenge: Route = async (env, req) => {
  const { user, session } = await requireUser(env.ctx.db, req)
  const factorId = req.path.split('/')[2] ?? ''
  const factor = await ownFactor(env, user.id, factorId)
  limitMfa(env, 'mfa-challenge', req.ip, factor.id)
  await assertMayVerify(env, factor, session.aal)
  if (!env.settings.mfa.totpVerify)
    throw httpError(422, 'mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP')
  const id = randomUUID()
  // ip_address is an inet, NOT NULL: an address the socket did not give as an IP is recorded as 0.0.0.0.
  await env.ctx.db.query(
    'insert into auth.mfa_challenges (id, factor_id, ip_address, created_at) values ($1, $2, $3, now())',
    [id, factor.id, inetOrNull(req.ip) ?? '0.0.0.0'],
  )
  await env.ctx.db.query('update auth.mfa_factors set last_challenged_at = now() where id = $1', [factor.id])
  return json({ id, type: 'totp', expires_at: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS })
}

export const verifyFactor: Route = async (env, req) => {
  const db = env.ctx.db
  const { user, session } = await requireUser(db, req)
  const factor = await ownFactor(env, user.id, req.path.split('/')[2] ?? '')
  limitMfa(env, 'mfa-verify', req.ip, factor.id)
  await assertMayVerify(env, factor, session.aal)
  const body = readBody(req)
  const challengeId = str(body, 'challenge_id') ?? ''
  const code = str(body, 'code') ?? ''
  const row = /^[0-9a-f-]{36}$/i.test(challengeId)
    ? (
        await db.query<{ id: string; created_at: Date; verified_at: Date | null; attempts: number }>(
          'select * from auth.mfa_challenges where id = $1 and factor_id = $2',
          [challengeId, factor.id],
        )
      ).rows[0]
    : undefined
  if (!row || row.verified_at) throw httpError(404, 'mfa_factor_not_found', 'Challenge not found')
  if (Date.now() - new Date(row.created_at).getTime() > CHALLENGE_TTL_SECONDS * 1000) {
    throw httpError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${row.id} has expired, verify against another challenge or create a new challenge.`,
    )
  }
  // Each code tried uses up one attempt, taken atomically so parallel guesses cannot share the last one.
  const attempt = await db.query(
    'update auth.mfa_challenges set attempts = attempts + 1 where id = $1 and verified_at is null and attempts < $2 returning attempts',
    [row.id, MAX_CHALLENGE_ATTEMPTS],
  )
  if (attempt.rows.length === 0) {
    throw httpError(
      422,
      'mfa_challenge_expired',
      'Too many wrong codes for this challenge. Start a new challenge and enter the current code from your authenticator app.',
    )
  }
  const totp = new TOTP({ secret: Secret.fromBase32(factor.secret), period: TOTP_PERIOD_SECONDS })
  const delta = /^\d{6}$/.test(code) ? totp.validate({ token: code, window: 1 }) : null
  if (delta === null) throw httpError(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
  // The time step the code belongs to; one that is not newer than the last accepted step is a replay.
  const step = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS) + delta
  const fresh = await db.query(
    'update auth.mfa_factors set last_used_step = $2 where id = $1 and (last_used_step is null or last_used_step < $2) returning id',
    [factor.id, step],
  )
  if (fresh.rows.length === 0) {
    throw httpError(
      422,
      'mfa_verification_failed',
      'This code was already used. Wait for the next code from your authenticator app.',
    )
  }
  const won = await db.query(
    'update auth.mfa_challenges set verified_at = now() where id = $1 and verified_at is null returning id',
    [row.id],
  )
  if (won.rows.length === 0) throw httpError(404, 'mfa_factor_not_found', 'Challenge not found')
  await db.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [factor.id])
  // The user's other unverified factors go (whoever enrolled them); switching two-factor on ends every
  // session that is still at aal1, this one excepted (it is raised to aal2 below).
  await db.query(
    "delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2 and id <> $3",
    [user.id, factor.factor_type, factor.id],
  )
  if (factor.status !== 'verified' && (await verifiedCount(env, user.id)) === 1) {
    await db.query("delete from auth.sessions where user_id = $1 and aal <> 'aal2' and id <> $2", [user.id, session.id])
  }
  const current = (await db.query<typeof user>('select * from auth.users where id = $1', [user.id])).rows[0]!
  return json(await upgradeSession(issuerOf(env), current, session, factor.id, 'totp'))
}

export const unenroll: Route = async (env, req) => {
  const db = env.ctx.db
  const { user, session } = await requireUser(db, req)
  const factor = await ownFactor(env, user.id, req.path.split('/')[2] ?? '')
  if (factor.status === 'verified' && session.aal !== 'aal2') {
    throw httpError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
  }
  await db.query('delete from auth.mfa_factors where id = $1', [factor.id])
  if ((await verifiedCount(env, user.id)) === 0) {
    await db.query("update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1", [user.id])
  }
  return json({ id: factor.id })
}
