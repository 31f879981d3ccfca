// The email-driven flows: password recovery, resend, email OTPs, magic links, email change with double
// confirmation, reauthentication codes and the PKCE variant — each followed through the dev mailbox.
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_CODE_TEMPLATES, signedInUser, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'
import { followVerifyLink, latestMail, messagesTo, otpIn, verifyLinkIn } from '../testing/auth-mailbox'

let backend: AuthTestBackend
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  // The code flows need the code in the email (the product's templates send links only).
  backend = await startAuthTestBackend({ auth: EMAIL_CODE_TEMPLATES })
})
afterAll(async () => {
  await backend?.close()
})

describe('password recovery', () => {
  it('emails a recovery link whose session can set a new password', async () => {
    const email = 'forgot@example.test'
    await signedInUser(backend, email, 'old-password-1')
    const { data, error } = await backend
      .client()
      .auth.resetPasswordForEmail(email, { redirectTo: 'http://127.0.0.1:5173/update-password' })
    expect(error).toBeNull()
    expect(data).toEqual({})
    const mail = await latestMail(backend.mailboxUrl, email, 'Reset your Growletter password')
    const { status, location, fragment } = await followVerifyLink(verifyLinkIn(mail))
    expect(status).toBe(303)
    expect(location.startsWith('http://127.0.0.1:5173/update-password#')).toBe(true)
    expect(fragment.get('type')).toBe('recovery')

    const client = backend.client()
    await client.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    })
    expect((await client.auth.updateUser({ password: 'new-password-2' })).error).toBeNull()
    expect((await backend.client().auth.signInWithPassword({ email, password: 'new-password-2' })).error).toBeNull()
  })

  it('answers an unknown address with the same {} and sends nothing', async () => {
    const { data, error } = await backend.client().auth.resetPasswordForEmail('nobody-here@example.test')
    expect(error).toBeNull()
    expect(data).toEqual({})
    expect(await messagesTo(backend.mailboxUrl, 'nobody-here@example.test')).toHaveLength(0)
  })

  it('falls back to site_url for a redirect_to outside the allow list', async () => {
    const email = 'phished@example.test'
    await signedInUser(backend, email)
    await backend.client().auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' })
    const link = new URL(verifyLinkIn(await latestMail(backend.mailboxUrl, email)))
    expect(link.searchParams.get('redirect_to')).toBe('http://127.0.0.1:5173')
  })
})

describe('resend and email OTP', () => {
  it('resends the signup confirmation, throttled by max_frequency, and only the newest link works', async () => {
    const email = 'resend@example.test'
    await backend.client().auth.signUp({ email, password: 'resend-password' })
    const first = await latestMail(backend.mailboxUrl, email)
    const tooSoon = await backend.client().auth.resend({ type: 'signup', email })
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    await wait(1100)
    expect((await backend.client().auth.resend({ type: 'signup', email })).error).toBeNull()
    const mails = await messagesTo(backend.mailboxUrl, email)
    expect(mails).toHaveLength(2)
    expect((await followVerifyLink(verifyLinkIn(first))).fragment.get('error_code')).toBe('otp_expired')
    expect((await followVerifyLink(verifyLinkIn(mails[0]!))).fragment.get('access_token')).toBeTruthy()
  })

  it('confirms a signup with the emailed 6-digit code through verifyOtp', async () => {
    const email = 'code@example.test'
    await backend.client().auth.signUp({ email, password: 'code-password' })
    const code = otpIn(await latestMail(backend.mailboxUrl, email))
    const wrong = await backend
      .client()
      .auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'signup' })
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' })
    const { data, error } = await backend.client().auth.verifyOtp({ email, token: code, type: 'signup' })
    expect(error).toBeNull()
    expect(data.session?.access_token).toBeTruthy()
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })

  it('verifies a token_hash with POST /verify', async () => {
    const email = 'hash@example.test'
    await backend.client().auth.signUp({ email, password: 'hash-password' })
    const tokenHash = new URL(verifyLinkIn(await latestMail(backend.mailboxUrl, email))).searchParams.get('token')!
    const { data, error } = await backend.client().auth.verifyOtp({ token_hash: tokenHash, type: 'email' })
    expect(error).toBeNull()
    expect(data.user?.email).toBe(email)
  })

  it('signs in a known user with a magic link (signInWithOtp)', async () => {
    const email = 'magic@example.test'
    await signedInUser(backend, email)
    expect(
      (await backend.client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
    ).toBeNull()
    const mail = await latestMail(backend.mailboxUrl, email, 'Your Growletter sign-in link')
    const { fragment } = await followVerifyLink(verifyLinkIn(mail))
    expect(fragment.get('type')).toBe('magiclink')
    expect(fragment.get('access_token')).toBeTruthy()
  })

  it('sends nothing to an unknown address when create_user is false, and answers as for a known one', async () => {
    // GoTrue answers 422 otp_disabled here, which tells who has an account; this backend does not (issue 37).
    const { error } = await backend
      .client()
      .auth.signInWithOtp({ email: 'stranger@example.test', options: { shouldCreateUser: false } })
    expect(error).toBeNull()
    expect(await messagesTo(backend.mailboxUrl, 'stranger@example.test')).toEqual([])
  })

  it('signs up an unknown address through OTP with a confirmation email', async () => {
    const email = 'otp-new@example.test'
    expect((await backend.client().auth.signInWithOtp({ email })).error).toBeNull()
    const mail = await latestMail(backend.mailboxUrl, email, 'Confirm your Growletter account')
    const { data } = await backend.client().auth.verifyOtp({ email, token: otpIn(mail), type: 'email' })
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })
})

describe('email change', () => {
  it('needs the links sent to both the new and the current address', async () => {
    const { client } = await signedInUser(backend, 'old-address@example.test')
    const { data, error } = await client.auth.updateUser(
      { email: 'new-address@example.test' },
      { emailRedirectTo: 'http://127.0.0.1:5173/dashboard' },
    )
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: 'old-address@example.test', new_email: 'new-address@example.test' })
    const toNew = await latestMail(backend.mailboxUrl, 'new-address@example.test', 'Confirm your new email address')
    const toCurrent = await latestMail(backend.mailboxUrl, 'old-address@example.test', 'Confirm your new email address')

    const first = await followVerifyLink(verifyLinkIn(toNew))
    expect(first.fragment.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    )
    expect((await client.auth.getUser()).data.user?.email).toBe('old-address@example.test')

    const second = await followVerifyLink(verifyLinkIn(toCurrent))
    expect(second.fragment.get('type')).toBe('email_change')
    const { data: after } = await backend.client().auth.getUser(second.fragment.get('access_token')!)
    expect(after.user?.email).toBe('new-address@example.test')
    // The profile trigger follows the address.
    const profile = await backend.db.query<{ email: string }>('select email from public.profiles where id = $1', [
      after.user!.id,
    ])
    expect(profile.rows[0]?.email).toBe('new-address@example.test')
  })

  it('refuses an address another account uses with 422 email_exists', async () => {
    await signedInUser(backend, 'taken@example.test')
    const { client } = await signedInUser(backend, 'wants-taken@example.test')
    expect((await client.auth.updateUser({ email: 'taken@example.test' })).error).toMatchObject({
      status: 422,
      code: 'email_exists',
    })
  })
})

describe('reauthentication', () => {
  it('emails a code that authorises a password change as the nonce', async () => {
    const email = 'reauth@example.test'
    const { client } = await signedInUser(backend, email)
    expect((await client.auth.reauthenticate()).error).toBeNull()
    const code = otpIn(await latestMail(backend.mailboxUrl, email, 'Your Growletter confirmation code'))
    expect(
      (await client.auth.updateUser({ password: 'after-reauth-1', nonce: '999999' === code ? '000000' : '999999' }))
        .error,
    ).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
    })
    expect((await client.auth.updateUser({ password: 'after-reauth-1', nonce: code })).error).toBeNull()
  })
})

describe('PKCE', () => {
  it('redirects with ?code= and exchanges it with the verifier for a session', async () => {
    const email = 'pkce@example.test'
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const signup = await fetch(`${backend.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: 'pkce-password',
        code_challenge: challenge,
        code_challenge_method: 's256',
      }),
    })
    expect(signup.status).toBe(200)
    const { location } = await followVerifyLink(verifyLinkIn(await latestMail(backend.mailboxUrl, email)))
    const code = new URL(location).searchParams.get('code')
    expect(code).toBeTruthy()
    const exchange = async (code_verifier: string) =>
      fetch(`${backend.apiUrl}/auth/v1/token?grant_type=pkce`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ auth_code: code, code_verifier }),
      })
    expect((await exchange('wrong-verifier')).status).toBe(400)
    const ok = await exchange(verifier)
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ token_type: 'bearer', user: { email } })
  })
})
