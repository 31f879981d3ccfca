// Sign-up, email confirmation and password sign-in through the real supabase-js client, following the
// confirmation link from the dev mailbox like a person does.
import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'
import { followVerifyLink, latestMail, messagesTo, verifyLinkIn } from '../testing/auth-mailbox'

let backend: AuthTestBackend
const PASSWORD = 'correct-horse-9'

beforeAll(async () => {
  backend = await startAuthTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

describe('sign-up with email confirmation required', () => {
  const email = 'new.reader@example.test'

  it('returns the user without a session and emails a confirmation link', async () => {
    const { data, error } = await backend.client().auth.signUp({
      email,
      password: PASSWORD,
      options: {
        data: { full_name: 'New Reader', user_type: 'publisher' },
        emailRedirectTo: 'http://127.0.0.1:5173/dashboard',
      },
    })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'New Reader', user_type: 'publisher' },
      is_anonymous: false,
    })
    expect(data.user?.email_confirmed_at).toBeUndefined()
    expect(data.user?.identities).toHaveLength(1)
    expect(data.user?.identities?.[0]).toMatchObject({
      provider: 'email',
      identity_data: { email, email_verified: false },
    })

    const mail = await latestMail(backend.mailboxUrl, email, 'Confirm your Growletter account')
    expect(mail.html).toContain('Growletter')
    expect(mail.text).toContain('/auth/v1/verify?token=')
    const link = new URL(verifyLinkIn(mail))
    expect(link.searchParams.get('type')).toBe('signup')
    expect(link.searchParams.get('redirect_to')).toBe('http://127.0.0.1:5173/dashboard')
  })

  it('runs the auth.users insert trigger: the profile exists with the signup metadata', async () => {
    const r = await backend.db.query<{ user_type: string; full_name: string }>(
      'select p.user_type, p.full_name from public.profiles p join auth.users u on u.id = p.id where u.email = $1',
      [email],
    )
    expect(r.rows[0]).toMatchObject({ user_type: 'publisher', full_name: 'New Reader' })
  })

  it('stores only a hash of the emailed token and a $2a$ bcrypt password', async () => {
    const mail = await latestMail(backend.mailboxUrl, email)
    const r = await backend.db.query<{ confirmation_token: string; encrypted_password: string }>(
      'select confirmation_token, encrypted_password from auth.users where email = $1',
      [email],
    )
    const row = r.rows[0]!
    expect(new URL(verifyLinkIn(mail)).searchParams.get('token')).toBe(row.confirmation_token)
    expect(mail.html).not.toContain(row.encrypted_password)
    expect(row.encrypted_password).toMatch(/^\$2a\$/)
    // pgcrypto agrees with the hash, so SQL-side tools and seeds interoperate.
    const check = await backend.db.query<{ ok: boolean }>('select extensions.crypt($1, $2) = $2 as ok', [
      PASSWORD,
      row.encrypted_password,
    ])
    expect(check.rows[0]?.ok).toBe(true)
  })

  it('refuses password sign-in until the email is confirmed', async () => {
    const { data, error } = await backend.client().auth.signInWithPassword({ email, password: PASSWORD })
    expect(data.session).toBeNull()
    expect(error).toBeInstanceOf(AuthApiError)
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' })
  })

  it('confirms through the emailed link: 303 to redirect_to with the session in the fragment', async () => {
    const mail = await latestMail(backend.mailboxUrl, email)
    const { status, location, fragment } = await followVerifyLink(verifyLinkIn(mail))
    expect(status).toBe(303)
    expect(location.startsWith('http://127.0.0.1:5173/dashboard#')).toBe(true)
    expect(fragment.get('token_type')).toBe('bearer')
    expect(fragment.get('type')).toBe('signup')
    expect(Number(fragment.get('expires_in'))).toBe(3600)
    expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000)
    expect(fragment.get('refresh_token')).toBeTruthy()
    const claims = decodeJwt(fragment.get('access_token')!)
    expect(claims).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      iss: `${backend.apiUrl}/auth/v1`,
    })

    const { data } = await backend.client().auth.getUser(fragment.get('access_token')!)
    expect(data.user?.email_confirmed_at).toBeTruthy()
    expect(data.user?.identities?.[0]?.identity_data).toMatchObject({ email_verified: true })
  })

  it('redirects a used link back with otp_expired in the fragment', async () => {
    const mail = await latestMail(backend.mailboxUrl, email)
    const { status, location, fragment } = await followVerifyLink(verifyLinkIn(mail))
    expect(status).toBe(303)
    expect(location.startsWith('http://127.0.0.1:5173/dashboard#')).toBe(true)
    expect(fragment.get('error')).toBe('access_denied')
    expect(fragment.get('error_code')).toBe('otp_expired')
    expect(fragment.get('error_description')).toBe('Email link is invalid or has expired')
  })

  it('signs in with the password once confirmed, with GoTrue claims in the access token', async () => {
    const { data, error } = await backend.client().auth.signInWithPassword({ email, password: PASSWORD })
    expect(error).toBeNull()
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(data.user?.last_sign_in_at).toBeTruthy()
    const claims = decodeJwt(data.session!.access_token)
    expect(claims).toMatchObject({
      sub: data.user!.id,
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'New Reader' },
    })
    expect(claims.session_id).toEqual(expect.any(String))
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])
    expect(claims.exp! - claims.iat!).toBe(3600)
  })

  it('answers a second sign-up for the confirmed address as a new one (one identity, another id) and sends no email', async () => {
    const before = (await messagesTo(backend.mailboxUrl, email)).length
    const { data, error } = await backend.client().auth.signUp({ email, password: 'another-password-1' })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    // GoTrue's obfuscated user has no identities, which tells the address is taken (trust-auth-round3.test.ts).
    expect(data.user?.identities).toHaveLength(1)
    const real = await backend.db.query<{ id: string }>('select id from auth.users where email = $1', [email])
    expect(data.user?.id).not.toBe(real.rows[0]!.id)
    expect((await messagesTo(backend.mailboxUrl, email)).length).toBe(before)
  })
})

describe('sign-up edge cases', () => {
  it('sends the confirmation again when an unconfirmed address signs up again', async () => {
    const email = 'twice@example.test'
    await backend.client().auth.signUp({ email, password: PASSWORD })
    await new Promise((r) => setTimeout(r, 1100)) // max_frequency is 1s in config.toml
    const { data, error } = await backend.client().auth.signUp({ email, password: PASSWORD })
    expect(error).toBeNull()
    expect(data.user?.identities).toHaveLength(1)
    expect(await messagesTo(backend.mailboxUrl, email)).toHaveLength(2)
  })

  it('rejects a short password with 422 weak_password and its reasons', async () => {
    const { error } = await backend.client().auth.signUp({ email: 'weak@example.test', password: 'short' })
    expect(error).toBeInstanceOf(AuthWeakPasswordError)
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    })
  })

  it("rejects an invalid email address with GoTrue's 400 validation_failed", async () => {
    const { error } = await backend.client().auth.signUp({ email: 'not-an-email', password: PASSWORD })
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    })
  })
})

describe('password sign-in failures and error shape', () => {
  it('answers a wrong password and an unknown address alike: 400 invalid_credentials', async () => {
    const wrong = await backend
      .client()
      .auth.signInWithPassword({ email: 'new.reader@example.test', password: 'wrong-password' })
    const unknown = await backend
      .client()
      .auth.signInWithPassword({ email: 'nobody@example.test', password: 'wrong-password' })
    for (const { error } of [wrong, unknown]) {
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' })
    }
  })

  it('sends GoTrue error bodies {code, error_code, msg} with the API version header', async () => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'x' }),
    })
    expect(res.status).toBe(400)
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await res.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' })
  })

  it('answers malformed JSON with 400 bad_json, never a 500', async () => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: '{"email":',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error_code: 'bad_json' })
  })

  it('verifies passwords hashed by pgcrypto, as seed.sql stores them', async () => {
    await backend.db.query(
      `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values (gen_random_uuid(), 'seeded@example.test', extensions.crypt('growletter-demo', extensions.gen_salt('bf')), now(), '{}')`,
    )
    const { data, error } = await backend
      .client()
      .auth.signInWithPassword({ email: 'Seeded@Example.test', password: 'growletter-demo' })
    expect(error).toBeNull()
    expect(data.user?.email).toBe('seeded@example.test')
  })
})

describe('health and settings', () => {
  it('reports health and the email provider settings', async () => {
    const headers = { apikey: backend.anonKey }
    const health = await fetch(`${backend.apiUrl}/auth/v1/health`, { headers })
    expect(health.status).toBe(200)
    expect(health.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    const settings = await (await fetch(`${backend.apiUrl}/auth/v1/settings`, { headers })).json()
    expect(settings).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
    })
  })
})
