// Issue 21, the embedded auth's share: factors nobody can plant (attack 3), sessions that really end (the auth
// half of attack 5: the rows the database checks are gone), sign-up for an unconfirmed address (pre-account
// takeover, attack 5), one inbox behind many Gmail spellings and password guesses spread over many addresses
// (attack 6). Each attack is performed through supabase-js or fetch as an attacker would, beside the honest
// path that must still work; every refusal is asserted with its code and message.
import { decodeJwt } from 'jose'
import { randomUUID } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { signJwt } from '../keys'
import { inboxOf } from './rate-limit'
import { latestMail, verifyLinkIn, followVerifyLink, type MailboxMessage } from '../testing/auth-mailbox'
import { engine, nextIp, startTrustBackend, type TrustBackend } from '../testing/trust-backend'

let b: TrustBackend
beforeAll(async () => {
  b = await startTrustBackend({ seed: false })
})
afterAll(async () => {
  await b?.close()
})

const PASSWORD = 'correct-horse-battery'
let userCount = 0
const uniqueEmail = (label: string) => `${label}-${++userCount}-${randomUUID().slice(0, 8)}@example.test`

async function confirmedUser(label: string) {
  const email = uniqueEmail(label)
  const { data, error } = await b.admin().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true })
  if (error) throw error
  return { email, id: data.user.id }
}

async function signIn(email: string, ip = nextIp(), password = PASSWORD) {
  const client = b.client(ip)
  const { data, error } = await client.auth.signInWithPassword({ email, password })
  if (error) throw error
  return { client, session: data.session! }
}

const sessionIdOf = (accessToken: string) => decodeJwt(accessToken).session_id as string
const sessionRowExists = async (id: string) =>
  (await b.db.query('select 1 from auth.sessions where id = $1', [id])).rows.length === 1
/** GET /auth/v1/user with a bearer token, raw (supabase-js turns session_not_found into a generic error). */
async function getUser(accessToken: string) {
  const res = await b.fetch('/auth/v1/user', nextIp(), { headers: { authorization: `Bearer ${accessToken}` } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
const sessionGone = {
  status: 403,
  body: { code: 403, error_code: 'session_not_found', msg: 'Session from session_id claim in JWT does not exist' },
}

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) })
/** The code of the current 30-second step, or of a later one (the server accepts one step of drift). */
const codeAt = (secret: string, stepsAhead = 0) =>
  totp(secret).generate({ timestamp: Date.now() + stepsAhead * 30_000 })

describe(`factor hygiene (${engine})`, () => {
  it('attack: a password-only session cannot plant a factor on an account with a verified one', async () => {
    const { email } = await confirmedUser('plant-after')
    const owner = await signIn(email)
    const { data: real } = await owner.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Owner phone' })
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: real!.id, code: codeAt(real!.totp.secret) })).error,
    ).toBeNull()

    // The attacker knows the password only: aal1.
    const attacker = await signIn(email)
    const planted = await attacker.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Attacker' })
    expect(planted.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    })
    const factors = await b.db.query<{ id: string }>(
      'select id from auth.mfa_factors where user_id = (select id from auth.users where email = $1)',
      [email],
    )
    expect(factors.rows.map((r) => r.id)).toEqual([real!.id])

    // Honest: the owner at aal2 adds a second authenticator.
    const second = await owner.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Backup phone' })
    expect(second.error).toBeNull()
    expect(
      (
        await owner.client.auth.mfa.challengeAndVerify({
          factorId: second.data!.id,
          code: codeAt(second.data!.totp.secret),
        })
      ).error,
    ).toBeNull()
    const { data: list } = await owner.client.auth.mfa.listFactors()
    expect(list!.all.map((f) => [f.friendly_name, f.status])).toEqual([
      ['Owner phone', 'verified'],
      ['Backup phone', 'verified'],
    ])
  })

  it('attack: a factor planted while the owner sets up theirs is deleted when the owner verifies, and its session ends', async () => {
    const { email } = await confirmedUser('plant-during')
    const owner = await signIn(email)
    const { data: real } = await owner.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Owner phone' })
    // Meanwhile, the attacker (password only) enrols a factor of their own, still unverified.
    const attacker = await signIn(email)
    const { data: planted, error } = await attacker.client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Attacker',
    })
    expect(error).toBeNull()

    // The owner verifies theirs: the planted factor is gone, and so is every session still at aal1.
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: real!.id, code: codeAt(real!.totp.secret) })).error,
    ).toBeNull()
    const { data: list } = await owner.client.auth.mfa.listFactors()
    expect(list!.all.map((f) => [f.id, f.status])).toEqual([[real!.id, 'verified']])
    expect(await sessionRowExists(sessionIdOf(attacker.session.access_token))).toBe(false)
    expect(await getUser(attacker.session.access_token)).toEqual(sessionGone)
    // A fresh password-only sign-in cannot reach the planted factor either.
    const again = await signIn(email)
    const late = await again.client.auth.mfa.challengeAndVerify({
      factorId: planted!.id,
      code: codeAt(planted!.totp.secret),
    })
    expect(late.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found', message: 'Factor not found' })
    expect((await again.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1')

    // Honest: the owner's session is aal2 and stays signed in.
    expect((await owner.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2')
    expect((await owner.client.auth.getUser()).error).toBeNull()
  })

  it('attack: an aal1 session cannot challenge or verify an unverified factor while a verified one exists', async () => {
    const { email, id } = await confirmedUser('verify-planted')
    const owner = await signIn(email)
    const { data: real } = await owner.client.auth.mfa.enroll({ factorType: 'totp' })
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: real!.id, code: codeAt(real!.totp.secret) })).error,
    ).toBeNull()
    // An unverified factor the attacker knows the secret of, left from before this release (enrolment at aal1
    // is refused now, so it can only be an old row).
    const secret = new Secret({ size: 20 }).base32
    const plantedId = randomUUID()
    await b.db.query(
      "insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at) values ($1, $2, 'Old plant', 'totp', 'unverified', $3, now(), now())",
      [plantedId, id, secret],
    )
    const attacker = await signIn(email)
    const refused = {
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to verify a new factor while another factor is verified',
    }
    expect((await attacker.client.auth.mfa.challenge({ factorId: plantedId })).error).toMatchObject(refused)
    // Straight to /verify with a made-up challenge, as a script would.
    const res = await b.fetch(`/auth/v1/factors/${plantedId}/verify`, nextIp(), {
      method: 'POST',
      headers: { authorization: `Bearer ${attacker.session.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ challenge_id: randomUUID(), code: codeAt(secret) }),
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error_code: 'insufficient_aal', msg: refused.message })
    expect((await attacker.client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1')

    // The owner's next step-up with the real factor deletes the old plant (every verification does, as GoTrue's).
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: real!.id, code: codeAt(real!.totp.secret, 1) }))
        .error,
    ).toBeNull()
    const { data: list } = await owner.client.auth.mfa.listFactors()
    expect(list!.all.map((f) => [f.id, f.status])).toEqual([[real!.id, 'verified']])
  })

  it('honest: a first factor is enrolled and verified at aal1, and an unverified one can be removed at aal1', async () => {
    const { email } = await confirmedUser('first-factor')
    const owner = await signIn(email)
    const { data: abandoned } = await owner.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Abandoned' })
    expect((await owner.client.auth.mfa.unenroll({ factorId: abandoned!.id })).error).toBeNull()
    const { data: real } = await owner.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    expect(
      (await owner.client.auth.mfa.challengeAndVerify({ factorId: real!.id, code: codeAt(real!.totp.secret) })).error,
    ).toBeNull()
    expect((await owner.client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal2',
      nextLevel: 'aal2',
    })
  })
})

describe(`sessions end where the database sees them (${engine})`, () => {
  it('every access token names its session, and that session is a row of auth.sessions', async () => {
    const { email } = await confirmedUser('session-claim')
    const { client, session } = await signIn(email)
    expect(await sessionRowExists(sessionIdOf(session.access_token))).toBe(true)
    const refreshed = await client.auth.refreshSession()
    expect(sessionIdOf(refreshed.data.session!.access_token)).toBe(sessionIdOf(session.access_token))
    const { data: factor } = await client.auth.mfa.enroll({ factorType: 'totp' })
    const { data: aal2 } = await client.auth.mfa.challengeAndVerify({
      factorId: factor!.id,
      code: codeAt(factor!.totp.secret),
    })
    expect(sessionIdOf(aal2!.access_token)).toBe(sessionIdOf(session.access_token))
    expect(await sessionRowExists(sessionIdOf(aal2!.access_token))).toBe(true)
  })

  it('attack: a stolen token after "sign out other devices" — its session row is gone, the token and its refresh token are refused', async () => {
    const { email } = await confirmedUser('signout-others')
    const owner = await signIn(email)
    const stolen = await signIn(email) // the attacker's copy of another device's tokens
    expect((await owner.client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect(await sessionRowExists(sessionIdOf(stolen.session.access_token))).toBe(false)
    expect(await getUser(stolen.session.access_token)).toEqual(sessionGone)
    const refresh = await b.client(nextIp()).auth.refreshSession({ refresh_token: stolen.session.refresh_token })
    expect(refresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    // Honest: the device that signed the others out carries on.
    expect(await sessionRowExists(sessionIdOf(owner.session.access_token))).toBe(true)
    expect((await owner.client.auth.getUser()).error).toBeNull()
  })

  it('attack: a stolen token after sign-out everywhere — no session row of the user is left', async () => {
    const { email, id } = await confirmedUser('signout-global')
    const owner = await signIn(email)
    const stolen = await signIn(email)
    expect((await owner.client.auth.signOut({ scope: 'global' })).error).toBeNull()
    expect((await b.db.query('select 1 from auth.sessions where user_id = $1', [id])).rows).toEqual([])
    expect(await getUser(stolen.session.access_token)).toEqual(sessionGone)
    // Honest: signing in again works.
    expect((await signIn(email)).session.access_token).toBeTruthy()
  })

  it('attack: a stolen token after a password change — its session row is gone; the changing session stays', async () => {
    const { email } = await confirmedUser('password-change')
    const owner = await signIn(email)
    const stolen = await signIn(email)
    expect((await owner.client.auth.updateUser({ password: 'a-new-password-2' })).error).toBeNull()
    expect(await sessionRowExists(sessionIdOf(stolen.session.access_token))).toBe(false)
    expect(await getUser(stolen.session.access_token)).toEqual(sessionGone)
    expect(await sessionRowExists(sessionIdOf(owner.session.access_token))).toBe(true)
    expect((await signIn(email, nextIp(), 'a-new-password-2')).session).toBeTruthy()
  })

  it('attack: a refresh token replayed after the reuse interval deletes the session row; its access tokens are refused', async () => {
    const { email } = await confirmedUser('reuse')
    const victim = await signIn(email)
    const stolenRefresh = victim.session.refresh_token
    const rotated = await victim.client.auth.refreshSession()
    expect(rotated.error).toBeNull()
    // Age the used token past refresh_token_reuse_interval (10 s in config.toml), then the thief replays it.
    await b.db.query("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where revoked")
    const replay = await b.client(nextIp()).auth.refreshSession({ refresh_token: stolenRefresh })
    expect(replay.error).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    })
    expect(await sessionRowExists(sessionIdOf(victim.session.access_token))).toBe(false)
    expect(await getUser(rotated.data.session!.access_token)).toEqual(sessionGone)
    // Honest: a two-tab race within the interval keeps the session.
    const other = await signIn(email)
    const first = await b.client(nextIp()).auth.refreshSession({ refresh_token: other.session.refresh_token })
    const second = await b.client(nextIp()).auth.refreshSession({ refresh_token: other.session.refresh_token })
    expect([first.error, second.error]).toEqual([null, null])
    expect(await sessionRowExists(sessionIdOf(other.session.access_token))).toBe(true)
  })
})

describe(`sign-up for an unconfirmed address (${engine})`, () => {
  /** Lets the next confirmation email go out at once (max_frequency), as time passing would. */
  const backdateConfirmation = (email: string) =>
    b.db.query("update auth.users set confirmation_sent_at = now() - interval '2 minutes' where email = $1", [email])
  const clearMailbox = () => fetch(`${b.mailboxUrl}/api/messages`, { method: 'DELETE' })
  const signUp = (email: string, password: string, data?: Record<string, unknown>) =>
    b.client(nextIp()).auth.signUp({ email, password, options: data ? { data } : undefined })
  const passwordSignIn = (email: string, password: string) =>
    b.client(nextIp()).auth.signInWithPassword({ email, password })
  const invalid = { status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' }

  /** Follows the newest confirmation link in the inbox, as its owner does; returns the session it signs in. */
  async function confirmFromInbox(email: string) {
    const link = verifyLinkIn(await latestMail(b.mailboxUrl, email, 'Confirm'))
    const { fragment } = await followVerifyLink(link)
    const accessToken = fragment.get('access_token')
    expect(accessToken).toBeTruthy()
    return accessToken!
  }

  /** The owner, signed in by the confirmation link, sets a password and signs in with it. */
  async function ownerSetsPassword(email: string, accessToken: string) {
    const res = await b.fetch('/auth/v1/user', nextIp(), {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'owner-chosen-later-1' }),
    })
    expect(res.status).toBe(200)
    expect((await passwordSignIn(email, 'owner-chosen-later-1')).error).toBeNull()
  }

  it('attack: the first registrant’s password does not survive the owner’s sign-up (pre-account takeover)', async () => {
    const email = uniqueEmail('preaccount')
    expect((await signUp(email, 'attacker-password-1', { full_name: 'Account suspended' })).error).toBeNull()
    await backdateConfirmation(email)
    await clearMailbox()

    // The owner of the inbox signs up with their own password and confirms from their inbox.
    expect((await signUp(email, 'owner-password-1')).error).toBeNull()
    const session = await confirmFromInbox(email)
    expect((await passwordSignIn(email, 'attacker-password-1')).error).toMatchObject(invalid)
    // Two different passwords were registered for the address: the link installed neither; the owner is in.
    expect((await passwordSignIn(email, 'owner-password-1')).error).toMatchObject(invalid)
    expect((await getUser(session)).body).toMatchObject({ email })
    await ownerSetsPassword(email, session)
  })

  it('attack: a sign-up after the owner’s does not put its password on the account, whichever email the owner clicks', async () => {
    const email = uniqueEmail('postaccount')
    expect((await signUp(email, 'owner-password-1')).error).toBeNull()
    await backdateConfirmation(email)
    expect((await signUp(email, 'attacker-password-1')).error).toBeNull()
    // The owner clicks the newest email, the one the attacker's sign-up sent.
    const session = await confirmFromInbox(email)
    expect((await passwordSignIn(email, 'attacker-password-1')).error).toMatchObject(invalid)
    await ownerSetsPassword(email, session)
  })

  it('attack: sessions and factors of the pending account do not survive another sign-up', async () => {
    const email = uniqueEmail('preaccount-session')
    expect((await signUp(email, 'attacker-password-1')).error).toBeNull()
    const { rows } = await b.db.query<{ id: string }>('select id from auth.users where email = $1', [email])
    const userId = rows[0]!.id
    // A session and a factor on the pending account, however obtained (e.g. while confirmations were off).
    const sessionId = randomUUID()
    await b.db.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sessionId, userId])
    await b.db.query(
      "insert into auth.mfa_factors (id, user_id, factor_type, status, secret, created_at, updated_at) values ($1, $2, 'totp', 'unverified', 'JBSWY3DPEHPK3PXP', now(), now())",
      [randomUUID(), userId],
    )
    const now = Math.floor(Date.now() / 1000)
    const token = await signJwt({
      aud: 'authenticated',
      role: 'authenticated',
      sub: userId,
      session_id: sessionId,
      aal: 'aal1',
      iat: now,
      exp: now + 3600,
    })
    expect((await getUser(token)).status).toBe(200)

    await backdateConfirmation(email)
    expect((await signUp(email, 'owner-password-1')).error).toBeNull()
    expect(await getUser(token)).toEqual(sessionGone)
    expect((await b.db.query('select 1 from auth.mfa_factors where user_id = $1', [userId])).rows).toEqual([])
  })

  it('attack: a magic-link sign-in of the owner clears the password someone registered the address with', async () => {
    const email = uniqueEmail('preaccount-otp')
    expect((await signUp(email, 'attacker-password-1')).error).toBeNull()
    await backdateConfirmation(email)
    await clearMailbox()
    // The owner never signs up with a password: they ask for a sign-in link and follow it.
    expect((await b.client(nextIp()).auth.signInWithOtp({ email })).error).toBeNull()
    const session = await confirmFromInbox(email)
    expect((await passwordSignIn(email, 'attacker-password-1')).error).toMatchObject(invalid)
    await ownerSetsPassword(email, session)
  })

  it('honest: signing up again with the same password keeps it; too soon gets the max_frequency answer', async () => {
    const email = uniqueEmail('again')
    expect((await signUp(email, 'my-password-1')).error).toBeNull()
    // Too soon: as if the first email went out moments ago under a longer max_frequency (1 s in config.toml,
    // too short for a test that must not depend on speed). Nothing changes.
    await b.db.query("update auth.users set confirmation_sent_at = now() + interval '30 seconds' where email = $1", [
      email,
    ])
    const tooSoon = await signUp(email, 'other-password-1')
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    expect(tooSoon.error!.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/)
    await backdateConfirmation(email)
    await clearMailbox()
    // The person who lost the first email signs up again with the same password: it is kept.
    expect((await signUp(email, 'my-password-1')).error).toBeNull()
    await confirmFromInbox(email)
    expect((await passwordSignIn(email, 'my-password-1')).error).toBeNull()
  })
})

describe(`one inbox, many spellings (${engine})`, () => {
  async function inboxMessages(inbox: string): Promise<MailboxMessage[]> {
    const all = (await (await fetch(`${b.mailboxUrl}/api/messages`)).json()) as MailboxMessage[]
    return all.filter((m) => inboxOf(m.to.replace(/^.*</, '').replace(/>.*$/, '')) === inbox)
  }

  it('attack: 15 Gmail dot / googlemail / +tag spellings of one inbox get 5 auth emails, then a readable 429', async () => {
    const name = `joanne${randomUUID().slice(0, 6)}`
    const inbox = `${name}@gmail.com`
    const dotted = (i: number) =>
      `${name.slice(0, 1 + (i % (name.length - 1)))}.${name.slice(1 + (i % (name.length - 1)))}`
    const variants = Array.from({ length: 15 }, (_, i) =>
      i % 3 === 0
        ? `${dotted(i)}@gmail.com`
        : i % 3 === 1
          ? `${dotted(i)}+n${i}@googlemail.com`
          : `${name}+t${i}@GMail.com`,
    )
    expect(new Set(variants.map(inboxOf))).toEqual(new Set([inbox]))
    const results: Array<string | null> = []
    for (const [i, email] of variants.entries()) {
      // Every request from its own address: per-IP limits do not help here.
      const client = b.client(nextIp())
      const { error } =
        i % 2 === 0
          ? await client.auth.signUp({ email, password: PASSWORD })
          : await client.auth.signInWithOtp({ email })
      if (error)
        expect(error).toMatchObject({
          status: 429,
          code: 'over_email_send_rate_limit',
          message: 'Email rate limit exceeded',
        })
      results.push(error?.code ?? null)
    }
    expect(results.filter((r) => r === null)).toHaveLength(5)
    expect(results.slice(5)).toEqual(Array(10).fill('over_email_send_rate_limit'))
    expect(await inboxMessages(inbox)).toHaveLength(5)
    // The recovery email of a confirmed account on that inbox waits too.
    await b.admin().auth.admin.createUser({ email: `${name}+acct@gmail.com`, password: PASSWORD, email_confirm: true })
    expect((await b.client(nextIp()).auth.resetPasswordForEmail(`${name}+acct@gmail.com`)).error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'Email rate limit exceeded',
    })

    // Honest: another person's Gmail inbox still gets its confirmation.
    const other = `${name}x@gmail.com`
    expect((await b.client(nextIp()).auth.signUp({ email: other, password: PASSWORD })).error).toBeNull()
    expect(await inboxMessages(inboxOf(other))).toHaveLength(1)
  })
})

describe(`password guesses for one account from many addresses (${engine})`, () => {
  it('attack: 240 guesses from 24 addresses meet a per-account limit; the owner keeps signing in from a known device, and anyone after 15 minutes', async () => {
    const { email } = await confirmedUser('spread-guess')
    const home = nextIp()
    await signIn(email, home) // the owner's usual address
    const attackerIps = Array.from({ length: 24 }, () => nextIp())
    const message =
      'Too many failed sign-in attempts for this account from new locations. Try again in 15 minutes, sign in from a device you used before, or reset your password.'
    const outcomes: string[] = []
    for (const ip of attackerIps) {
      for (let i = 0; i < 10; i++) {
        const { error } = await b.client(ip).auth.signInWithPassword({ email, password: `guess-${ip}-${i}` })
        if (error?.code === 'over_request_rate_limit') expect(error).toMatchObject({ status: 429, message })
        else expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
        outcomes.push(error!.code!)
      }
    }
    // 50 failures count against the account, at most 5 from each address: the 10th address is stopped after
    // its 5th guess (9 × 10 + 5 = 95 guesses checked), and every later guess is refused unchecked.
    expect(outcomes.filter((c) => c === 'invalid_credentials')).toHaveLength(95)
    expect(outcomes.slice(95)).toEqual(Array(145).fill('over_request_rate_limit'))
    // Even the right password from a new address is refused now (the limit is no oracle)...
    const right = await b.client(nextIp()).auth.signInWithPassword({ email, password: PASSWORD })
    expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message })
    // ...but the owner at home is not locked out.
    expect((await b.client(home).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()

    // Time-windowed: 15 minutes later a new address signs in again.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 15 * 60_000 + 1000)
      const later = await b.client(nextIp()).auth.signInWithPassword({ email, password: PASSWORD })
      expect(later.error).toBeNull()
      expect(later.data.session?.user.email).toBe(email)
    } finally {
      vi.useRealTimers()
    }
  })

  it('an unknown address meets the same limit (it reveals no accounts); other accounts are unaffected', async () => {
    const ghost = uniqueEmail('nobody')
    const codes: string[] = []
    for (let i = 0; i < 11; i++) {
      const ip = nextIp()
      for (let j = 0; j < 5; j++)
        codes.push((await b.client(ip).auth.signInWithPassword({ email: ghost, password: `g${i}-${j}` })).error!.code!)
    }
    expect(codes.slice(0, 50)).toEqual(Array(50).fill('invalid_credentials'))
    expect(codes.slice(50)).toEqual(Array(5).fill('over_request_rate_limit'))
    const { email } = await confirmedUser('neighbour')
    expect((await b.client(nextIp()).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
  })
})
