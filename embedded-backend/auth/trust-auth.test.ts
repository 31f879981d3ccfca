// Issue 10, the embedded auth's share: attack 2 (emailed OTPs guessed from ever-new forged IPs), attack 11
// (failing logins for someone's email locking that person out everywhere) and attack 16 with the MFA
// hardening (an aal1 session changing the password; unlimited, replayable TOTP guesses). Each attack is
// performed through supabase-js or fetch as an attacker would, beside the honest path that must still work.
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { followVerifyLink, latestMail, otpIn, verifyLinkIn } from '../testing/auth-mailbox'
import { engine, forgedIp, nextIp, startTrustBackend, type TrustBackend } from '../testing/trust-backend'
import { EMAIL_CODE_TEMPLATES } from '../testing/auth-backend'

let b: TrustBackend
beforeAll(async () => {
  // The emailed-OTP attacks need the code in the email (the product's templates send links only).
  b = await startTrustBackend({ seed: false, auth: EMAIL_CODE_TEMPLATES })
})
afterAll(async () => {
  await b?.close()
})

const PASSWORD = 'correct-horse-battery'
let userCount = 0
async function confirmedUser(label: string) {
  const email = `${label}-${++userCount}-${Date.now()}@example.test`
  const { data, error } = await b.admin().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true })
  if (error) throw error
  return { email, id: data.user.id }
}

/** A client of the same person, from their own address, signed in with the password only (aal1). */
async function signIn(email: string, ip = nextIp()) {
  const client = b.client(ip)
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD })
  if (error) throw error
  return client
}

const wrongCode = (right: string, i = 0) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0')

describe(`emailed OTPs (${engine})`, () => {
  async function requestSignInCode(email: string) {
    // Each request is a new token; the cooldown between emails to one user is a minute, so tests backdate it.
    await b.db.query("update auth.users set recovery_sent_at = now() - interval '2 minutes' where email = $1", [email])
    expect(
      (await b.client(nextIp()).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
    ).toBeNull()
    const mail = await latestMail(b.mailboxUrl, email, 'sign-in')
    await fetch(`${b.mailboxUrl}/api/messages`, { method: 'DELETE' })
    return { code: otpIn(mail), link: verifyLinkIn(mail) }
  }

  it('attack: five wrong codes from ever-new forged IPs kill the real code and the link', async () => {
    const { email } = await confirmedUser('otp-victim')
    const { code, link } = await requestSignInCode(email)
    const attackerProxyIp = nextIp()
    for (let i = 0; i < 5; i++) {
      const attacker = b.client(attackerProxyIp, { 'x-forwarded-for': forgedIp() })
      const { error } = await attacker.auth.verifyOtp({ email, token: wrongCode(code, i), type: 'email' })
      expect(error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' })
    }
    const real = await b.client(nextIp()).auth.verifyOtp({ email, token: code, type: 'email' })
    expect(real.error).toMatchObject({ status: 403, code: 'otp_expired' })
    expect((await followVerifyLink(link)).fragment.get('error_code')).toBe('otp_expired')

    // Honest: a newly requested code has the full allowance again and signs in.
    const fresh = await requestSignInCode(email)
    const { data, error } = await b.client(nextIp()).auth.verifyOtp({ email, token: fresh.code, type: 'email' })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
  })

  it('honest: four wrong codes, then the right one, still signs in', async () => {
    const { email } = await confirmedUser('otp-typo')
    const { code } = await requestSignInCode(email)
    const client = b.client(nextIp())
    for (let i = 0; i < 4; i++) {
      expect((await client.auth.verifyOtp({ email, token: wrongCode(code, i), type: 'email' })).error?.code).toBe(
        'otp_expired',
      )
    }
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' })
    expect(error).toBeNull()
    expect(data.session).toBeTruthy()
  })

  it('attack: the reauthentication code of a password change dies after five wrong codes too', async () => {
    const { email } = await confirmedUser('nonce')
    const client = await signIn(email)
    expect((await client.auth.reauthenticate()).error).toBeNull()
    const nonce = otpIn(await latestMail(b.mailboxUrl, email))
    for (let i = 0; i < 5; i++) {
      const { error } = await client.auth.updateUser({ password: `new-password-${i}`, nonce: wrongCode(nonce, i) })
      expect(error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
    }
    const { error } = await client.auth.updateUser({ password: 'new-password-ok', nonce })
    expect(error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
      message: 'Requires reauthentication',
    })
  })
})

describe(`sign-in limits (${engine})`, () => {
  it('attack: failing logins for someone’s email, with a forged IP each time, lock out only the attacker', async () => {
    const limit = (await loadConfig()).auth.rate_limit.sign_in_sign_ups as number
    const { email } = await confirmedUser('lockout-victim')
    const attackerProxyIp = nextIp()
    for (let i = 0; i < limit; i++) {
      const attacker = b.client(attackerProxyIp, { 'x-forwarded-for': forgedIp() })
      const { error } = await attacker.auth.signInWithPassword({ email, password: `guess-${i}` })
      expect(error?.code).toBe('invalid_credentials')
    }
    const blocked = await b
      .client(attackerProxyIp, { 'x-forwarded-for': forgedIp() })
      .auth.signInWithPassword({ email, password: PASSWORD })
    expect(blocked.error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    })

    // The owner, from their own address, is not locked out.
    const { data, error } = await b.client(nextIp()).auth.signInWithPassword({ email, password: PASSWORD })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
  })
})

describe(`MFA (${engine})`, () => {
  const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) })
  /** The code of the current 30-second step, or of a later one (the server accepts one step of drift). */
  const codeAt = (secret: string, stepsAhead = 0) =>
    totp(secret).generate({ timestamp: Date.now() + stepsAhead * 30_000 })

  /** A user with a verified TOTP factor (its current step used up by the enrolment) and an aal1 session. */
  async function userWithFactor(label: string) {
    const { email } = await confirmedUser(label)
    const owner = await signIn(email)
    const { data: factor, error } = await owner.auth.mfa.enroll({ factorType: 'totp' })
    if (error) throw error
    const verified = await owner.auth.mfa.challengeAndVerify({ factorId: factor.id, code: codeAt(factor.totp.secret) })
    if (verified.error) throw verified.error
    return { email, factorId: factor.id, secret: factor.totp.secret, aal1: await signIn(email) }
  }

  it('attack: an aal1 session of a user with a verified factor cannot change the password or the email', async () => {
    const { email, factorId, secret, aal1 } = await userWithFactor('aal1-takeover')
    const insufficient = {
      status: 401,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    }
    expect((await aal1.auth.updateUser({ password: 'attacker-password-1' })).error).toMatchObject(insufficient)
    expect((await aal1.auth.updateUser({ email: `attacker-${Date.now()}@example.test` })).error).toMatchObject(
      insufficient,
    )
    const stored = await b.db.query<{ email_change: string | null }>(
      'select email_change from auth.users where email = $1',
      [email],
    )
    expect(stored.rows[0]!.email_change || null).toBeNull()
    // Metadata is not a takeover: it still works at aal1.
    expect((await aal1.auth.updateUser({ data: { full_name: 'Still Me' } })).error).toBeNull()

    // Honest: after the second factor (aal2) the password changes.
    expect((await aal1.auth.mfa.challengeAndVerify({ factorId, code: codeAt(secret, 1) })).error).toBeNull()
    expect((await aal1.auth.updateUser({ password: 'new-password-after-mfa' })).error).toBeNull()
    const again = await b.client(nextIp()).auth.signInWithPassword({ email, password: 'new-password-after-mfa' })
    expect(again.error).toBeNull()
  })

  it('attack: a challenge dies after five wrong codes, even if the sixth is right', async () => {
    const { factorId, secret, aal1 } = await userWithFactor('challenge-guess')
    const right = codeAt(secret, 1)
    const { data: challenge } = await aal1.auth.mfa.challenge({ factorId })
    for (let i = 0; i < 5; i++) {
      const { error } = await aal1.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: wrongCode(right, i) })
      expect(error).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
        message: 'Invalid TOTP code entered',
      })
    }
    const sixth = await aal1.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: right })
    expect(sixth.error).toMatchObject({
      status: 422,
      code: 'mfa_challenge_expired',
      message:
        'Too many wrong codes for this challenge. Start a new challenge and enter the current code from your authenticator app.',
    })

    // Honest: a new challenge with the right code raises the session to aal2.
    const { data: next } = await aal1.auth.mfa.challenge({ factorId })
    const { data, error } = await aal1.auth.mfa.verify({ factorId, challengeId: next!.id, code: right })
    expect(error).toBeNull()
    expect(data?.access_token).toBeTruthy()
    expect((await aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2')
  })

  it('attack: a code that was used once is refused on a new challenge; the next code works', async () => {
    const { factorId, secret, aal1 } = await userWithFactor('totp-replay')
    // The enrolment used the current step's code: replaying it (as a phished or shoulder-surfed code) fails.
    const replay = await aal1.auth.mfa.challengeAndVerify({ factorId, code: codeAt(secret) })
    expect(replay.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'This code was already used. Wait for the next code from your authenticator app.',
    })
    expect((await aal1.auth.mfa.challengeAndVerify({ factorId, code: codeAt(secret, 1) })).error).toBeNull()
  })

  it('attack: guesses spread over many IPs meet the per-factor limit (15 a minute); the limit is per factor', async () => {
    const { factorId, secret, aal1 } = await userWithFactor('mfa-flood')
    const right = codeAt(secret, 1)
    const token = (await aal1.auth.getSession()).data.session!.access_token
    // Every request from another address, as a botnet would send them, with the stolen aal1 session.
    const post = (path: string, body: unknown) =>
      fetch(`${b.apiUrl}/auth/v1/factors/${factorId}/${path}`, {
        method: 'POST',
        headers: {
          apikey: b.anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-real-ip': nextIp(),
        },
        body: JSON.stringify(body),
      })
    const statuses: number[] = []
    for (let round = 0; round < 4; round++) {
      const challenge = (await (await post('challenge', {})).json()) as { id: string }
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await post('verify', { challenge_id: challenge.id, code: wrongCode(right, round * 4 + i) })).status,
        )
      }
    }
    // 15 verifications a minute for this factor, the enrolment's included: 14 guesses, then 429s.
    expect(statuses.slice(0, 14)).toEqual(Array(14).fill(422))
    expect(statuses.slice(14)).toEqual([429, 429])

    // Another user's factor is not affected.
    const other = await userWithFactor('mfa-neighbour')
    expect(
      (await other.aal1.auth.mfa.challengeAndVerify({ factorId: other.factorId, code: codeAt(other.secret, 1) })).error,
    ).toBeNull()
  })
})
