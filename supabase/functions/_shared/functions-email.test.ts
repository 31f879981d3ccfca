// Email from the edge functions through Resend's HTTP API (EMAIL_PROVIDER=resend), as production sends it: hosted
// edge functions cannot reach SMTP ports 25/587. RESEND_API_URL points the mailer at a stub on this machine that
// records each request, so the test asserts the exact request Resend's API reference asks for.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFunctionsHandler } from '../../../embedded-backend/functions/index'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import { bodyOf, fixtures, request, runnerContext } from '../../../embedded-backend/testing/functions-helpers'

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: unknown }
type Answer = { status: number; body: unknown; headers?: Record<string, string> }

/** A stand-in for api.resend.com: records every request and answers from a script (then 200 with an id). */
async function resendStub() {
  const seen: Seen[] = []
  const script: Answer[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: text ? JSON.parse(text) : null })
      const answer = script.shift() ?? { status: 200, body: { id: `email-${seen.length}` } }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
      res.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, seen, script, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const RESEND_ENV = (url: string) => ({
  EMAIL_PROVIDER: 'resend',
  RESEND_API_URL: url,
  RESEND_API_KEY: 're_test_0123456789',
  EMAIL_FROM: 'Growletter <hello@growletter.example>',
})

describe('the mailer with EMAIL_PROVIDER=resend', () => {
  let stub: Awaited<ReturnType<typeof resendStub>>
  let handler: ReturnType<typeof createFunctionsHandler>
  beforeAll(async () => {
    stub = await resendStub()
    handler = createFunctionsHandler(runnerContext(), {
      functionsDir: fixtures,
      env: RESEND_ENV(stub.url),
      log: () => {},
    })
  })
  afterAll(async () => {
    await handler?.close()
    await stub?.close()
  })
  const send = (body: Record<string, unknown>) =>
    handler(request('send-email', { body: Buffer.from(JSON.stringify(body)) }))
  const message = { to: 'reader@example.com', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' }

  it('POSTs {base}/emails with the bearer key, JSON, a User-Agent, the idempotency key and the documented body', async () => {
    stub.seen.length = 0
    const res = await send({ ...message, idempotencyKey: 'notification/42' })
    expect(bodyOf(res.body)).toEqual({ sent: true })
    expect(stub.seen).toHaveLength(1)
    const [request] = stub.seen
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/emails')
    expect(request.headers.authorization).toBe('Bearer re_test_0123456789')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['user-agent']).toBe('growletter-functions/1.0')
    expect(request.headers['idempotency-key']).toBe('notification/42')
    expect(request.body).toEqual({
      from: 'Growletter <hello@growletter.example>',
      to: ['reader@example.com'],
      subject: 'Hello',
      html: '<p>Hi</p>',
      text: 'Hi',
    })
  })

  it('gives every email an idempotency key of its own when the caller names none', async () => {
    stub.seen.length = 0
    await send(message)
    await send(message)
    const keys = stub.seen.map((r) => r.headers['idempotency-key'])
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[0]).not.toBe(keys[1])
  })

  it('sends again after a 429 or a 5xx with the same idempotency key, so the retry is never a second email', async () => {
    stub.seen.length = 0
    stub.script.push(
      {
        status: 429,
        body: { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests' },
        headers: { 'retry-after': '1' },
      },
      { status: 500, body: { statusCode: 500, name: 'application_error', message: 'Try again' } },
    )
    expect(bodyOf((await send(message)).body)).toEqual({ sent: true })
    expect(stub.seen).toHaveLength(3)
    expect(new Set(stub.seen.map((r) => r.headers['idempotency-key'])).size).toBe(1)
  })

  it("fails on any other refusal at once, with Resend's own words", async () => {
    stub.seen.length = 0
    stub.script.push({
      status: 422,
      body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
    })
    const res = await send(message)
    expect(res.status).toBe(502)
    expect(bodyOf(res.body)).toEqual({
      sent: false,
      error: 'Resend refused the email (422 validation_error: Invalid `to` field.)',
    })
    expect(stub.seen).toHaveLength(1)
  })
})

describe('a product function sending through Resend', () => {
  let backend: Backend
  let stub: Awaited<ReturnType<typeof resendStub>>
  let handler: ReturnType<typeof createFunctionsHandler>
  beforeAll(async () => {
    backend = await startBackend({ port: 0, dataDir: null, seed: false, cron: false })
    stub = await resendStub()
    // The backend's own functions keep the SMTP sink; this runner is the same functions folder as production deploys,
    // talking to the backend's API with the email settings a hosted project would have.
    handler = createFunctionsHandler(
      { ...runnerContext(), apiUrl: backend.apiUrl, anonKey: backend.anonKey, serviceRoleKey: backend.serviceRoleKey },
      { env: { ...RESEND_ENV(stub.url), SMTP_HOST: '' }, log: () => {} },
    )
  })
  afterAll(async () => {
    await handler?.close()
    await stub?.close()
    await backend?.close()
  })

  it('send-backup-confirmation emails an unconfirmed account its link through the email API', async () => {
    const email = `resend-${Date.now()}@example.com`
    const admin = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
      method: 'POST',
      headers: {
        apikey: backend.serviceRoleKey,
        authorization: `Bearer ${backend.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email, password: 'a-long-password-1', email_confirm: false }),
    })
    expect(admin.status).toBe(200)
    const res = await handler(
      request('send-backup-confirmation', {
        headers: { authorization: `Bearer ${backend.anonKey}`, apikey: backend.anonKey },
        body: Buffer.from(JSON.stringify({ email })),
      }),
    )
    expect(bodyOf(res.body)).toEqual({ success: true })
    // The answer comes before the background send: wait for the request to reach the email API.
    for (let i = 0; i < 100 && stub.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(stub.seen).toHaveLength(1)
    const sent = stub.seen[0].body as Record<string, unknown>
    expect(sent.from).toBe('Growletter <hello@growletter.example>')
    expect(sent.to).toEqual([email])
    expect(sent.subject).toBe('Confirm your Growletter account')
    expect(String(sent.text)).toMatch(/\/auth\/v1\/verify\?/)
  })
})
