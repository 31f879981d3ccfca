// Rate limits from supabase/config.toml [auth.rate_limit], per client IP (sign-ins also per IP and address
// together, never per address alone: trust-auth.test.ts), over 5 minutes: 429 over_request_rate_limit for
// requests, over_email_send_rate_limit for emails sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { freshIp, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'

let backend: AuthTestBackend
let limits: { sign_in_sign_ups: number; email_sent: number }

beforeAll(async () => {
  backend = await startAuthTestBackend()
  limits = (await loadConfig()).auth.rate_limit
})
afterAll(async () => {
  await backend?.close()
})

describe('rate limits', () => {
  it('limits password sign-ins per IP, without affecting other IPs', async () => {
    const ip = freshIp()
    const client = backend.client({ 'x-forwarded-for': ip })
    for (let i = 0; i < limits.sign_in_sign_ups; i++) {
      const { error } = await client.auth.signInWithPassword({
        email: `guess-${i}@example.test`,
        password: 'wrong-password',
      })
      expect(error?.code).toBe('invalid_credentials')
    }
    const { error } = await client.auth.signInWithPassword({
      email: 'one-more@example.test',
      password: 'wrong-password',
    })
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
    const elsewhere = await backend
      .client()
      .auth.signInWithPassword({ email: 'one-more@example.test', password: 'wrong-password' })
    expect(elsewhere.error?.code).toBe('invalid_credentials')
  })

  it('limits emails sent per IP with over_email_send_rate_limit', async () => {
    const admin = backend.admin().auth.admin
    const emails = Array.from({ length: limits.email_sent + 1 }, (_, i) => `reset-${i}@example.test`)
    for (const email of emails) await admin.createUser({ email, email_confirm: true })
    const client = backend.client({ 'x-forwarded-for': freshIp() })
    for (const email of emails.slice(0, -1)) expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull()
    const { error } = await client.auth.resetPasswordForEmail(emails.at(-1)!)
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
  })

  it('answers 429 in GoTrue shape with the API version header', async () => {
    const ip = freshIp()
    let res: Response | undefined
    for (let i = 0; i <= limits.sign_in_sign_ups; i++) {
      res = await fetch(`${backend.apiUrl}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email: `flood-${i}@example.test`, password: 'short' }),
      })
    }
    expect(res!.status).toBe(429)
    expect(res!.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await res!.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    })
  })
})
