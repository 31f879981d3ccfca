// Issue 37, the embedded auth's share: accounts cannot be enumerated through /signup or /otp (nor /recover and
// /resend, which share the withheld-email path), and weak passwords are refused (`password`, `12345678`, the rest
// of the shipped list of common and leaked ones). Each attack is made as an attacker would, through fetch or
// supabase-js, beside the honest path that must keep working; refusals are asserted with GoTrue's code and words.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { latestMail, messagesTo, verifyLinkIn, followVerifyLink } from '../testing/auth-mailbox'
import { engine, nextIp, startTrustBackend, type TrustBackend } from '../testing/trust-backend'

let b: TrustBackend
beforeAll(async () => {
  // max_frequency long enough that "too soon" never depends on how fast this machine sends two requests.
  b = await startTrustBackend({ seed: false, auth: { email: { max_frequency: '60s' } } })
})
afterAll(async () => {
  await b?.close()
})

const PASSWORD = 'correct-horse-battery'
const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.test`

async function confirmedUser(label: string, metadata: Record<string, unknown> = {}) {
  const email = uniqueEmail(label)
  const { error } = await b
    .admin()
    .auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: metadata })
  if (error) throw error
  return email
}

/** A raw POST to /auth/v1/<path> from a fresh address: status and body text, byte for byte. */
async function post(path: string, body: Record<string, unknown>, ip = nextIp()) {
  const res = await b.fetch(`/auth/v1/${path}`, ip, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, text: await res.text() }
}

/** The answer with what must differ between any two sign-ups (the address, ids, times) replaced. */
const skeleton = (text: string, email: string) =>
  text
    .replaceAll(email, '<email>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')

const signupBody = (email: string) => ({
  email,
  password: 'another-long-secret-1',
  data: { full_name: 'Probe Person', user_type: 'publisher' },
})

describe(`sign-up does not tell whether an address has an account (${engine})`, () => {
  it('attack: a sign-up for a confirmed address answers byte for byte as a new one, and emails nobody', async () => {
    const taken = await confirmedUser('taken', { full_name: 'Real Owner' })
    const fresh = uniqueEmail('fresh')
    const forNew = await post('signup', signupBody(fresh))
    const forTaken = await post('signup', signupBody(taken))
    expect([forNew.status, forTaken.status]).toEqual([200, 200])
    expect(skeleton(forTaken.text, taken)).toBe(skeleton(forNew.text, fresh))

    const answer = JSON.parse(forTaken.text) as Record<string, unknown> & { identities: unknown[] }
    // GoTrue's obfuscated user has `identities: []`: the tell its own docs describe. Not here.
    expect(answer.identities).toHaveLength(1)
    expect(answer).toMatchObject({ email: taken, user_metadata: { full_name: 'Probe Person' }, factors: [] })
    expect(answer).not.toHaveProperty('access_token')
    const real = await b.db.query<{ id: string }>('select id from auth.users where email = $1', [taken])
    expect(answer.id).not.toBe(real.rows[0]!.id)
    expect(await messagesTo(b.mailboxUrl, taken)).toEqual([])
    // Nothing about the account changed: the owner still signs in with their password and keeps their name.
    const owner = await b.client(nextIp()).auth.signInWithPassword({ email: taken, password: PASSWORD })
    expect(owner.error).toBeNull()
    expect(owner.data.user?.user_metadata).toMatchObject({ full_name: 'Real Owner' })
  })

  it('honest: a new address still gets its confirmation email, and the link signs the person in', async () => {
    const email = uniqueEmail('honest-signup')
    expect((await post('signup', signupBody(email))).status).toBe(200)
    const { fragment } = await followVerifyLink(verifyLinkIn(await latestMail(b.mailboxUrl, email, 'Confirm')))
    expect(fragment.get('access_token')).toBeTruthy()
  })

  it('attack: a sign-up for an unconfirmed address never shows the first registrant’s name', async () => {
    const email = uniqueEmail('pending')
    expect(
      (
        await b
          .client(nextIp())
          .auth.signUp({ email, password: PASSWORD, options: { data: { full_name: 'First Registrant' } } })
      ).error,
    ).toBeNull()
    // Let the next confirmation email go out at once, as time passing would.
    await b.db.query("update auth.users set confirmation_sent_at = now() - interval '2 minutes' where email = $1", [
      email,
    ])
    const again = await post('signup', signupBody(email))
    expect(again.status).toBe(200)
    expect(again.text).not.toContain('First Registrant')
    expect(JSON.parse(again.text)).toMatchObject({ user_metadata: { full_name: 'Probe Person' } })
  })

  it('attack: asking twice in a row gets the same max_frequency 429 for a confirmed address as for a new one', async () => {
    const taken = await confirmedUser('twice-taken')
    const fresh = uniqueEmail('twice-fresh')
    for (const email of [taken, fresh]) {
      expect((await post('signup', signupBody(email))).status).toBe(200)
      const second = await post('signup', signupBody(email))
      expect(second.status).toBe(429)
      expect(JSON.parse(second.text)).toMatchObject({
        error_code: 'over_email_send_rate_limit',
        msg: expect.stringMatching(/^For security purposes, you can only request this after (59|60) seconds\.$/),
      })
    }
  })
})

describe(`a sign-in link (OTP) does not tell whether an address has an account (${engine})`, () => {
  const otp = (email: string) => post('otp', { email, create_user: false })

  it('attack: create_user false answers an unknown address as a known one (200 {}), with no email and no account', async () => {
    const known = await confirmedUser('otp-known')
    const unknown = uniqueEmail('otp-unknown')
    expect(await otp(unknown)).toEqual(await otp(known))
    expect(await otp(uniqueEmail('otp-unknown'))).toEqual({ status: 200, text: '{}' })
    const { error } = await b
      .client(nextIp())
      .auth.signInWithOtp({ email: uniqueEmail('otp-js'), options: { shouldCreateUser: false } })
    expect(error).toBeNull()
    expect(await messagesTo(b.mailboxUrl, unknown)).toEqual([])
    expect((await b.db.query('select 1 from auth.users where email = $1', [unknown])).rows).toEqual([])
  })

  it('honest: a known address gets its sign-in link, which signs the person in', async () => {
    const email = await confirmedUser('otp-honest')
    const { error } = await b.client(nextIp()).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })
    expect(error).toBeNull()
    const { fragment } = await followVerifyLink(verifyLinkIn(await latestMail(b.mailboxUrl, email, 'sign-in link')))
    expect(fragment.get('type')).toBe('magiclink')
    expect(fragment.get('access_token')).toBeTruthy()
  })

  it('attack: a second request within max_frequency is a 429 for an unknown address as for a known one', async () => {
    for (const email of [await confirmedUser('otp-twice'), uniqueEmail('otp-twice-unknown')]) {
      expect((await otp(email)).status).toBe(200)
      const second = await otp(email)
      expect(second.status).toBe(429)
      expect(JSON.parse(second.text)).toMatchObject({ error_code: 'over_email_send_rate_limit' })
    }
  })

  it('attack: a password reset for an unknown address meets the same cooldown as for a known one', async () => {
    for (const email of [await confirmedUser('recover-twice'), uniqueEmail('recover-twice-unknown')]) {
      expect(await post('recover', { email })).toEqual({ status: 200, text: '{}' })
      expect((await post('recover', { email })).status).toBe(429)
    }
  })
})

describe(`weak passwords are refused, with GoTrue's 422 weak_password (${engine})`, () => {
  const pwned = {
    status: 422,
    code: 'weak_password',
    reasons: ['pwned'],
    message: 'Password is known to be weak and easy to guess, please choose a different one.',
  }

  it('attack: signing up with `password` or `12345678` (or `PASSWORD1`) is refused; no account, no email', async () => {
    for (const password of ['password', '12345678', 'PASSWORD1']) {
      const email = uniqueEmail('weak')
      const { error } = await b.client(nextIp()).auth.signUp({ email, password })
      expect(error).toMatchObject(pwned)
      expect((await b.db.query('select 1 from auth.users where email = $1', [email])).rows).toEqual([])
      expect(await messagesTo(b.mailboxUrl, email)).toEqual([])
    }
  })

  it('a short password keeps GoTrue’s length reason and words (the list holds only what the length rule lets by)', async () => {
    const res = await post('signup', { email: uniqueEmail('short'), password: 'abc' })
    expect(res.status).toBe(422)
    expect(JSON.parse(res.text)).toEqual({
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 8 characters.',
      weak_password: { reasons: ['length'] },
    })
  })

  it('attack: a signed-in user cannot change their password to a listed one; a strong one works', async () => {
    const email = await confirmedUser('change')
    const client = b.client(nextIp())
    expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    expect((await client.auth.updateUser({ password: 'iloveyou' })).error).toMatchObject(pwned)
    expect((await client.auth.updateUser({ password: 'a-fresh-long-secret' })).error).toBeNull()
  })

  it('attack: a password reset cannot set a listed password; the honest reset sets a strong one', async () => {
    const email = await confirmedUser('reset')
    expect((await post('recover', { email })).status).toBe(200)
    const { fragment } = await followVerifyLink(verifyLinkIn(await latestMail(b.mailboxUrl, email, 'Reset')))
    const recovery = fragment.get('access_token')!
    const put = (password: string) =>
      b.fetch('/auth/v1/user', nextIp(), {
        method: 'PUT',
        headers: { authorization: `Bearer ${recovery}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      })
    const refused = await put('qwerty123')
    expect(refused.status).toBe(422)
    expect(await refused.json()).toMatchObject({ error_code: 'weak_password', weak_password: { reasons: ['pwned'] } })
    expect((await put('reset-to-something-long')).status).toBe(200)
    expect(
      (await b.client(nextIp()).auth.signInWithPassword({ email, password: 'reset-to-something-long' })).error,
    ).toBeNull()
  })

  it('honest: the documented demo password and a long passphrase are accepted', async () => {
    for (const password of ['growletter-demo', 'correct horse battery staple']) {
      const { error } = await b.client(nextIp()).auth.signUp({ email: uniqueEmail('strong'), password })
      expect(error).toBeNull()
    }
  })
})
