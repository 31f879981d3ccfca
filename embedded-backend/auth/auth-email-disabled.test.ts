// `[auth.email] enable_signup = false` switches GoTrue's email provider off: no email sign-ups and no email
// logins, each refused with GoTrue's code and words (email_provider_disabled), and /settings says so.
// Runs on the engine TEST_DATABASE_URL chooses (PGlite or PostgreSQL; scripts/test.ts runs it on both).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'

let backend: AuthTestBackend

beforeAll(async () => {
  backend = await startAuthTestBackend({ auth: { email: { enable_signup: false } } })
})
afterAll(async () => {
  await backend?.close()
})

describe('email provider off', () => {
  it('refuses email sign-up (400), password and OTP sign-in (422), recovery and resend (400)', async () => {
    const client = backend.client()
    expect((await client.auth.signUp({ email: 'off@example.test', password: 'password-123' })).error).toMatchObject({
      status: 400,
      code: 'email_provider_disabled',
      message: 'Email signups are disabled',
    })
    const logins = { code: 'email_provider_disabled', message: 'Email logins are disabled' }
    expect(
      (await client.auth.signInWithPassword({ email: 'off@example.test', password: 'password-123' })).error,
    ).toMatchObject({ status: 422, ...logins })
    expect((await client.auth.signInWithOtp({ email: 'off@example.test' })).error).toMatchObject({
      status: 422,
      ...logins,
    })
    expect((await client.auth.resetPasswordForEmail('off@example.test')).error).toMatchObject({
      status: 400,
      ...logins,
    })
    expect((await client.auth.resend({ type: 'signup', email: 'off@example.test' })).error).toMatchObject({
      status: 400,
      ...logins,
    })
  })

  it('says so in /settings', async () => {
    const res = await fetch(`${backend.apiUrl}/auth/v1/settings`, { headers: { apikey: backend.anonKey } })
    expect(((await res.json()) as { external: Record<string, boolean> }).external).toMatchObject({ email: false })
  })
})
