// GoTrue 2.185's answers where the embedded auth used to differ (issue 26): the address format check, admin
// pagination, /settings, the features a default hosted project has off, anonymous sign-ins, password rules.
// Each status, code and message is GoTrue's own (internal/api in supabase/auth), asserted through supabase-js
// where it exposes them and over plain HTTP where it hides the body.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshIp, signedInUser, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'

let backend: AuthTestBackend
/** Anonymous sign-ins, phone sign-ups with test numbers and a character rule for passwords, as a project can configure them. */
let anonymous: AuthTestBackend

beforeAll(async () => {
  // One after the other: on PostgreSQL both would create the cluster-wide API roles at once and collide.
  backend = await startAuthTestBackend()
  anonymous = await startAuthTestBackend({
    auth: {
      enable_anonymous_sign_ins: true,
      password_requirements: 'lower_upper_letters_digits',
      jwt_secret: 'ignored-here',
      sms: {
        enable_signup: true,
        enable_confirmations: true,
        max_frequency: '0s',
        test_otp: {
          '15550101': '123456',
          '15550102': '654321',
          '15550103': '111111',
          '15550104': '222222',
          '15550105': '333333',
          '15550106': '444444',
          '15550107': '555555',
        },
      },
    },
  })
})
afterAll(async () => {
  await Promise.all([backend?.close(), anonymous?.close()])
})

/** A raw request to /auth/v1 with the anon key, for answers supabase-js does not surface whole. */
async function raw(b: AuthTestBackend, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${b.apiUrl}/auth/v1${path}`, {
    method,
    headers: {
      apikey: b.anonKey,
      authorization: `Bearer ${token ?? b.anonKey}`,
      'content-type': 'application/json',
      'x-forwarded-for': freshIp(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const INVALID_EMAIL = 'xx:;x@x.x' // auth-js's own test address: no inbox can have it
const invalidFormat = {
  status: 400,
  code: 'validation_failed',
  message: 'Unable to validate email address: invalid format',
}

describe('email address format, as GoTrue checks it', () => {
  it('refuses an unreachable address on sign-up, OTP, recovery, admin create, invite and generate_link', async () => {
    const client = backend.client()
    const admin = backend.admin().auth.admin
    const answers = await Promise.all([
      client.auth.signUp({ email: INVALID_EMAIL, password: 'password-123' }),
      client.auth.signInWithOtp({ email: INVALID_EMAIL }),
      client.auth.resetPasswordForEmail(INVALID_EMAIL),
      admin.createUser({ email: INVALID_EMAIL, password: 'password-123' }),
      admin.inviteUserByEmail(INVALID_EMAIL),
      admin.generateLink({ type: 'signup', email: INVALID_EMAIL, password: 'password-123' }),
    ])
    for (const { error } of answers) expect(error).toMatchObject(invalidFormat)
    const { data } = await admin.listUsers({ perPage: 1000 })
    expect(data.users.map((u) => u.email)).not.toContain(INVALID_EMAIL)
  })

  it('refuses the address on an email change, signed in or by an admin', async () => {
    const { client, user } = await signedInUser(backend, 'changer@example.test')
    expect((await client.auth.updateUser({ email: INVALID_EMAIL })).error).toMatchObject(invalidFormat)
    expect((await backend.admin().auth.admin.updateUserById(user.id, { email: INVALID_EMAIL })).error).toMatchObject(
      invalidFormat,
    )
  })

  it('accepts what GoTrue accepts: tags, hyphens, subdomains, upper case (stored lower case)', async () => {
    const { data, error } = await backend
      .admin()
      .auth.admin.createUser({ email: 'Ann.Lee+News@mail-1.Example.test', password: 'password-123' })
    expect(error).toBeNull()
    expect(data.user?.email).toBe('ann.lee+news@mail-1.example.test')
  })
})

describe('admin create', () => {
  it('creates a user by phone, or by email and phone; refuses neither and a taken number', async () => {
    const admin = backend.admin().auth.admin
    const byPhone = await admin.createUser({ phone: '+15550200', phone_confirm: true, password: 'password-123' })
    expect(byPhone.error).toBeNull()
    expect(byPhone.data.user).toMatchObject({ phone: '15550200', email: '', app_metadata: { provider: 'phone' } })
    expect(byPhone.data.user?.phone_confirmed_at).toBeTruthy()
    const both = await admin.createUser({ email: 'both@example.test', phone: '15550201' })
    expect(both.data.user).toMatchObject({
      email: 'both@example.test',
      phone: '15550201',
      app_metadata: { providers: ['email', 'phone'] },
    })
    expect((await admin.createUser({ password: 'password-123' })).error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Cannot create a user without either an email or phone',
    })
    expect((await admin.createUser({ phone: '+15550200' })).error).toMatchObject({
      status: 422,
      code: 'phone_exists',
      message: 'Phone number already registered by another user',
    })
  })
})

describe('admin pagination', () => {
  it("answers page -1 with GoTrue's 400 Bad Pagination Parameters, not page 1", async () => {
    const { data, error } = await backend.admin().auth.admin.listUsers({ page: -1, perPage: 10 })
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax',
    })
    expect(data.users).toEqual([])
  })

  it('refuses a per_page that is not a number the same way', async () => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/admin/users?per_page=ten`, {
      headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      error_code: 'validation_failed',
      msg: 'Bad Pagination Parameters: strconv.ParseUint: parsing "ten": invalid syntax',
    })
  })
})

describe('GET /settings tells what the backend does', () => {
  it('reports email on, anonymous, phone, OAuth, SAML and passkeys off with the default config', async () => {
    const { status, body } = await raw(backend, 'GET', '/settings')
    expect(status).toBe(200)
    expect(body).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: false,
      saml_enabled: false,
      passkeys_enabled: false,
    })
    expect(body.external).toMatchObject({
      email: true,
      phone: false,
      anonymous_users: false,
      google: false,
      github: false,
    })
  })

  it('reports anonymous sign-ins on when config.toml turns them on', async () => {
    const { body } = await raw(anonymous, 'GET', '/settings')
    expect(body.external).toMatchObject({ anonymous_users: true, email: true, phone: true })
  })
})

describe("GoTrue's answers for features that are off", () => {
  it('anonymous sign-in: 422 anonymous_provider_disabled', async () => {
    const { data, error } = await backend.client().auth.signInAnonymously()
    expect(data.session).toBeNull()
    expect(error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    })
  })

  it('SAML SSO: 404 saml_provider_disabled', async () => {
    const { error } = await backend.client().auth.signInWithSSO({ domain: 'example.test' })
    expect(error).toMatchObject({ status: 404, code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' })
  })

  it('identity linking and unlinking: 404 manual_linking_disabled for a signed-in user, 403 bad_jwt for the anon key', async () => {
    const { client, user } = await signedInUser(backend, 'linker@example.test')
    const linked = await client.auth.linkIdentity({ provider: 'github' })
    expect(linked.error).toMatchObject({
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    })
    const unlinked = await client.auth.unlinkIdentity(user.identities![0]!)
    expect(unlinked.error).toMatchObject({ status: 404, code: 'manual_linking_disabled' })
    const anon = await raw(backend, 'GET', '/user/identities/authorize?provider=github')
    expect(anon).toMatchObject({ status: 403, body: { error_code: 'bad_jwt' } })
  })

  it('ID-token sign-in: 400 provider_disabled naming the issuer', async () => {
    const { data, error } = await backend.client().auth.signInWithIdToken({ provider: 'google', token: 'a.b.c' })
    expect(data.session).toBeNull()
    expect(error).toMatchObject({
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    })
    expect(await raw(backend, 'POST', '/token?grant_type=id_token', { provider: 'google' })).toMatchObject({
      status: 400,
      body: { error: 'invalid request', error_description: 'id_token required' },
    })
  })

  it('Web3 sign-in: 422 web3_provider_disabled', async () => {
    const res = await raw(backend, 'POST', '/token?grant_type=web3', { chain: 'solana', message: 'm', signature: 's' })
    expect(res).toMatchObject({
      status: 422,
      body: { error_code: 'web3_provider_disabled', msg: 'Web3 provider is disabled' },
    })
  })

  it('OAuth: 400 "Unsupported provider" for a known provider that is off and for an unknown one', async () => {
    expect(await raw(backend, 'GET', '/authorize?provider=github')).toMatchObject({
      status: 400,
      body: { error_code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' },
    })
    expect(await raw(backend, 'GET', '/authorize?provider=myspace')).toMatchObject({
      status: 400,
      body: { msg: 'Unsupported provider: Provider myspace could not be found' },
    })
  })

  it('passkeys: 404 passkey_disabled; the OAuth 2.1 server: 404 feature_disabled, its admin API for the service role only', async () => {
    expect(await raw(backend, 'POST', '/passkeys/authentication/options', {})).toMatchObject({
      status: 404,
      body: { error_code: 'passkey_disabled', msg: 'Passkeys are disabled' },
    })
    expect(await raw(backend, 'GET', '/.well-known/oauth-authorization-server')).toMatchObject({
      status: 404,
      body: { error_code: 'feature_disabled', msg: 'OAuth server is disabled' },
    })
    expect(await raw(backend, 'GET', '/admin/oauth/clients')).toMatchObject({
      status: 403,
      body: { error_code: 'not_admin' },
    })
    const asAdmin = await fetch(`${backend.apiUrl}/auth/v1/admin/oauth/clients`, {
      headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
    })
    expect(asAdmin.status).toBe(404)
    expect(await asAdmin.json()).toMatchObject({ error_code: 'feature_disabled', msg: 'OAuth server is disabled' })
  })

  it('phone sign-up: 400 phone_provider_disabled; an unknown grant: 400 unsupported_grant_type', async () => {
    const { error } = await backend.client().auth.signUp({ phone: '+15550100', password: 'password-123' })
    expect(error).toMatchObject({ status: 400, code: 'phone_provider_disabled', message: 'Phone signups are disabled' })
    expect(await raw(backend, 'POST', '/token?grant_type=magic', {})).toMatchObject({
      status: 400,
      body: { error_code: 'invalid_credentials', msg: 'unsupported_grant_type' },
    })
  })
})

describe('anonymous sign-ins when enabled', () => {
  it('creates an anonymous user with a session; the token says is_anonymous and the user has no email', async () => {
    const client = anonymous.client()
    const { data, error } = await client.auth.signInAnonymously({ options: { data: { theme: 'dark' } } })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ is_anonymous: true, email: '', user_metadata: { theme: 'dark' } })
    expect(data.user?.app_metadata).toEqual({})
    const claims = decodeJwt(data.session!.access_token)
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', sub: data.user!.id })
    expect(claims.amr).toEqual([expect.objectContaining({ method: 'anonymous' })])
    const me = await client.auth.getUser()
    expect(me.data.user?.id).toBe(data.user!.id)
  })
})

describe('reauthentication without an address or a number', () => {
  it("answers an anonymous user with GoTrue's 400 validation_failed", async () => {
    const client = anonymous.client()
    expect((await client.auth.signInAnonymously()).error).toBeNull()
    const { error } = await client.auth.reauthenticate()
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Reauthentication requires the user to have an email or a phone number',
    })
  })
})

describe('phone sign-up and sign-in with [auth.sms.test_otp]', () => {
  const PASSWORD = 'Phone-Pass-1'

  it('signs up without a session, refuses a wrong code (403 otp_expired), confirms with the test code', async () => {
    const client = anonymous.client()
    const signUp = await client.auth.signUp({ phone: '+1 5550101', password: PASSWORD })
    expect(signUp.error).toBeNull()
    expect(signUp.data.session).toBeNull()
    expect(signUp.data.user).toMatchObject({ phone: '15550101', app_metadata: { provider: 'phone' } })
    const wrong = await client.auth.verifyOtp({ phone: '+15550101', token: '000000', type: 'sms' })
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' })
    const right = await client.auth.verifyOtp({ phone: '+15550101', token: '123456', type: 'sms' })
    expect(right.error).toBeNull()
    expect(right.data.user?.phone_confirmed_at).toBeTruthy()
    const password = await anonymous.client().auth.signInWithPassword({ phone: '+15550101', password: PASSWORD })
    expect(password.error).toBeNull()
    expect(password.data.user?.id).toBe(signUp.data.user!.id)
  })

  it('refuses a password sign-in before the number is confirmed: 400 phone_not_confirmed', async () => {
    expect((await anonymous.client().auth.signUp({ phone: '+15550103', password: PASSWORD })).error).toBeNull()
    const { error } = await anonymous.client().auth.signInWithPassword({ phone: '+15550103', password: PASSWORD })
    expect(error).toMatchObject({ status: 400, code: 'phone_not_confirmed', message: 'Phone not confirmed' })
  })

  it('signs in by SMS code (creating the user), and resends the code', async () => {
    const client = anonymous.client()
    expect((await client.auth.signInWithOtp({ phone: '+15550102' })).error).toBeNull()
    expect((await client.auth.resend({ type: 'sms', phone: '+15550102' })).error).toBeNull()
    const { data, error } = await client.auth.verifyOtp({ phone: '+15550102', token: '654321', type: 'sms' })
    expect(error).toBeNull()
    expect(data.session?.access_token).toBeTruthy()
    expect(data.user).toMatchObject({ phone: '15550102' })
  })

  it("changes a signed-in user's number with a code sent to the new one (phone_change)", async () => {
    const client = anonymous.client()
    expect((await client.auth.signUp({ phone: '+15550104', password: PASSWORD })).error).toBeNull()
    expect((await client.auth.verifyOtp({ phone: '+15550104', token: '222222', type: 'sms' })).error).toBeNull()
    const update = await client.auth.updateUser({ phone: '+15550105' })
    expect(update.error).toBeNull()
    expect(update.data.user).toMatchObject({ phone: '15550104', new_phone: '15550105' })
    const { data, error } = await client.auth.verifyOtp({ phone: '+15550105', token: '333333', type: 'phone_change' })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ phone: '15550105' })
    expect(data.user).not.toHaveProperty('new_phone')
  })

  it('resends the code of a pending phone change (resend type phone_change); nothing pending is 200 too', async () => {
    const client = anonymous.client()
    expect((await client.auth.signUp({ phone: '+15550106', password: PASSWORD })).error).toBeNull()
    expect((await client.auth.verifyOtp({ phone: '+15550106', token: '444444', type: 'sms' })).error).toBeNull()
    expect((await client.auth.updateUser({ phone: '+15550107' })).error).toBeNull()
    const before = await anonymous.db.query<{ phone_change_sent_at: Date }>(
      "select phone_change_sent_at from auth.users where phone_change = '15550107'",
    )
    expect((await client.auth.resend({ type: 'phone_change', phone: '+15550107' })).error).toBeNull()
    const after = await anonymous.db.query<{ phone_change_sent_at: Date }>(
      "select phone_change_sent_at from auth.users where phone_change = '15550107'",
    )
    expect(new Date(after.rows[0]!.phone_change_sent_at).getTime()).toBeGreaterThanOrEqual(
      new Date(before.rows[0]!.phone_change_sent_at).getTime(),
    )
    // No change pending for this number: the same empty success, so numbers cannot be probed.
    expect((await client.auth.resend({ type: 'phone_change', phone: '+15550199' })).error).toBeNull()
    const { data, error } = await client.auth.verifyOtp({ phone: '+15550107', token: '555555', type: 'phone_change' })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ phone: '15550107' })
  })

  it('reauthenticates a user with a number and no address by SMS; the code is the nonce', async () => {
    const client = anonymous.client()
    expect((await client.auth.signInWithPassword({ phone: '+15550107', password: PASSWORD })).error).toBeNull()
    expect((await client.auth.reauthenticate()).error).toBeNull()
    expect((await client.auth.updateUser({ password: 'Phone-Pass-2', nonce: '000000' })).error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
    })
    expect((await client.auth.updateUser({ password: 'Phone-Pass-2', nonce: '555555' })).error).toBeNull()
  })

  it('refuses numbers it cannot text (400 sms_send_failed) and malformed ones (400 validation_failed)', async () => {
    const { error } = await anonymous.client().auth.signInWithOtp({ phone: '+15550199' })
    expect(error).toMatchObject({ status: 400, code: 'sms_send_failed' })
    expect(error?.message).toContain('[auth.sms.test_otp]')
    const malformed = await anonymous.client().auth.signInWithOtp({ phone: 'call me' })
    expect(malformed.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid phone number format (E.164 required)',
    })
  })
})

describe('passwords', () => {
  it('refuses more than 72 bytes with 400 validation_failed, before any other rule', async () => {
    const { error } = await backend.client().auth.signUp({ email: 'long@example.test', password: 'x'.repeat(73) })
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    })
  })

  it('applies password_requirements: 422 weak_password with reason characters and the sets named', async () => {
    const { error } = await anonymous.client().auth.signUp({ email: 'rules@example.test', password: 'alllowercase1' })
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['characters'],
      message:
        'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
    })
    const ok = await anonymous.client().auth.signUp({ email: 'rules@example.test', password: 'Mixed-Case-1' })
    expect(ok.error).toBeNull()
  })
})

describe('config.toml keys the backend ignores', () => {
  it('are reported at start: none for the project, jwt_secret for a config that sets it', () => {
    expect(backend.configReport).toEqual([])
    expect(anonymous.configReport).toEqual([
      'auth.jwt_secret = "ignored-here" is not supported by the embedded backend and is ignored.',
    ])
  })
})
