// The product's functions run the way hosted Supabase runs them: without the embedded backend's GROWLETTER_LOCAL=1
// marker, a missing production secret is a 500 that names it and how to set it, answered before the function calls
// anything, instead of a call to the local checkout or SMTP sink that does not exist on hosted.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFunctionsHandler } from '../../../embedded-backend/functions/index'
import { bodyOf, request, runnerContext } from '../../../embedded-backend/testing/functions-helpers'

/** Stands where SUPABASE_URL points: records every request a function makes (the API, the local checkout). */
async function recorder() {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    res.writeHead(401, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ code: 401, error_code: 'bad_jwt', msg: 'invalid JWT' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

// What hosted Supabase gives a function it has no secrets for: SUPABASE_* only (blank stands for unset here).
const HOSTED_WITHOUT_SECRETS = {
  GROWLETTER_LOCAL: '',
  SMTP_HOST: '',
  SMTP_PORT: '',
  STRIPE_WEBHOOK_SECRET: '',
  STRIPE_CONNECT_WEBHOOK_SECRET: '',
}

const missing = (secret: string) => ({
  error: `This function is not configured: set the secret ${secret} with \`supabase secrets set ${secret}=…\``,
})

describe('functions outside the embedded backend', () => {
  let api: Awaited<ReturnType<typeof recorder>>
  let hosted: ReturnType<typeof createFunctionsHandler>
  let hostedWithKey: ReturnType<typeof createFunctionsHandler>
  let local: ReturnType<typeof createFunctionsHandler>
  beforeAll(async () => {
    api = await recorder()
    const ctx = { ...runnerContext(), apiUrl: api.url }
    hosted = createFunctionsHandler(ctx, { env: HOSTED_WITHOUT_SECRETS, log: () => {} })
    hostedWithKey = createFunctionsHandler(ctx, {
      env: { ...HOSTED_WITHOUT_SECRETS, RESEND_API_KEY: 're_set_but_no_sender' },
      log: () => {},
    })
    local = createFunctionsHandler(ctx, { log: () => {} })
  })
  afterAll(async () => {
    await Promise.all([hosted?.close(), hostedWithKey?.close(), local?.close()])
    await api?.close()
  })

  it.each([
    ['create-checkout-session', 'STRIPE_SECRET_KEY', { amount: 25 }],
    ['create-connect-onboarding', 'STRIPE_SECRET_KEY', {}],
    ['send-payouts', 'STRIPE_SECRET_KEY', {}],
    ['payments-webhook', 'STRIPE_WEBHOOK_SECRET', {}],
    ['connect-webhook', 'STRIPE_CONNECT_WEBHOOK_SECRET', {}],
    ['subscribe', 'RESEND_API_KEY', { email: 'a@example.com', campaignIds: [] }],
    ['send-backup-confirmation', 'RESEND_API_KEY', { email: 'a@example.com' }],
    ['send-notifications', 'RESEND_API_KEY', {}],
  ])('%s answers 500 naming %s, and calls nothing', async (name, secret, body) => {
    api.seen.length = 0
    const res = await hosted(request(name, { body: Buffer.from(JSON.stringify(body)) }))
    expect(res.status).toBe(500)
    expect(bodyOf(res.body)).toMatchObject(missing(secret))
    expect(api.seen).toEqual([])
  })

  it('names the sender address next, once the email API key is set', async () => {
    const res = await hostedWithKey(request('subscribe', { body: Buffer.from('{}') }))
    expect(res.status).toBe(500)
    expect(bodyOf(res.body)).toMatchObject(missing('EMAIL_FROM'))
  })

  it('under the embedded backend (GROWLETTER_LOCAL=1) the same call goes on to the local stand-ins', async () => {
    api.seen.length = 0
    const res = await local(request('create-checkout-session', { body: Buffer.from('{"amount":25}') }))
    // Signed out (the recorder refuses the token), which means it asked the auth API rather than refusing to start.
    expect(res.status).toBe(401)
    expect(api.seen).toEqual(['GET /auth/v1/user'])
  })
})
