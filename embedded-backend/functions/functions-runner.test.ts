// The functions runner on its own: the handler the gateway mounts at /functions/v1, driven with ApiRequests
// against the fixture functions in fixtures/functions (real Deno process, real workers, no database).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFunctionsHandler } from './index'
import { bodyOf, fixtures, keys, request, runnerContext, signingKey } from '../testing/functions-helpers'

let handler: ReturnType<typeof createFunctionsHandler>
const logs: string[] = []

beforeAll(() => {
  process.env.GROWLETTER_TEST_SECRET = 'must-not-reach-functions'
  handler = createFunctionsHandler(runnerContext(), { functionsDir: fixtures, log: (line) => logs.push(line) })
})

afterAll(async () => {
  await handler?.close()
  delete process.env.GROWLETTER_TEST_SECRET
})

describe('functions runner', () => {
  it('answers 404 JSON for an unknown function, a shared folder or a path trick', async () => {
    for (const name of ['does-not-exist', '_shared', '..%2Fecho', '.hidden']) {
      const res = await handler(request(name))
      expect(res.status).toBe(404)
      expect(bodyOf(res.body)).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' })
    }
  })

  it('forwards method, path, query, headers, client IP and body, and returns status, headers and body', async () => {
    const res = await handler(
      request('echo', {
        method: 'PUT',
        path: '/echo/sub/path',
        query: new URLSearchParams('a=1&status=201'),
        headers: {
          authorization: `Bearer ${keys.anonKey}`,
          apikey: keys.anonKey,
          'x-custom': 'kept',
          'content-type': 'text/plain',
        },
        body: Buffer.from('hello body'),
        ip: '203.0.113.9',
      }),
    )
    expect(res.status).toBe(201)
    expect(res.headers?.['x-fixture']).toBe('echo')
    const seen = bodyOf(res.body)
    expect(seen).toMatchObject({ method: 'PUT', path: '/echo/sub/path', search: '?a=1&status=201', body: 'hello body' })
    expect(seen.headers).toMatchObject({
      authorization: `Bearer ${keys.anonKey}`,
      apikey: keys.anonKey,
      'x-custom': 'kept',
      'x-forwarded-for': '203.0.113.9',
    })
  })

  it('replaces a client-written x-forwarded-for or x-real-ip with the IP the gateway resolved', async () => {
    const headers = {
      authorization: `Bearer ${keys.anonKey}`,
      'x-forwarded-for': '198.51.100.7, 10.0.0.1',
      'x-real-ip': '198.51.100.8',
    }
    const seen = bodyOf((await handler(request('echo', { headers, ip: '203.0.113.5' }))).body)
    expect(seen.headers['x-forwarded-for']).toBe('203.0.113.5')
    expect(seen.headers['x-real-ip']).toBe('203.0.113.5')
  })

  it("gives functions the Supabase env as hosted injects it, SMTP settings and the local marker, and nothing else from the backend's env", async () => {
    const seen = bodyOf((await handler(request('echo'))).body)
    expect(seen.env).toEqual({
      SUPABASE_URL: 'http://127.0.0.1:56401',
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: keys.publishableKey }),
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: keys.secretKey }),
      SUPABASE_JWKS: JSON.stringify({ keys: [signingKey.publicJwk] }),
      SUPABASE_ANON_KEY: keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      SITE_URL: 'http://127.0.0.1:5173',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '56402',
      SMTP_FROM: 'Growletter <no-reply@growletter.test>',
      // Only the embedded backend sets it: the functions' stand-ins (test checkout, SMTP sink) exist only here.
      GROWLETTER_LOCAL: '1',
    })
    expect(seen.leakedEnv).toBeNull()
  })

  it('answers 500 JSON when a function throws, logs why, and keeps serving that function and others', async () => {
    const res = await handler(request('throws'))
    expect(res.status).toBe(500)
    expect(bodyOf(res.body)).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    })
    expect(logs.join('\n')).toContain('boom from a fixture function')
    const again = await handler(request('throws', { query: new URLSearchParams('ok=1') }))
    expect(again.status).toBe(200)
    expect(String(again.body)).toBe('still serving')
    expect((await handler(request('echo'))).status).toBe(200)
  })

  it('answers 500 JSON for a module that never calls Deno.serve', async () => {
    const res = await handler(request('no-serve'))
    expect(res.status).toBe(500)
    expect(logs.join('\n')).toContain('did not call Deno.serve')
  })

  it('requires a valid JWT when verify_jwt is on (the default), and not when config.toml turns it off', async () => {
    const missing = await handler(request('echo', { headers: { apikey: keys.anonKey } }))
    expect(missing.status).toBe(401)
    expect(bodyOf(missing.body)).toEqual({ code: 401, message: 'Missing authorization header' })
    const forged = await handler(request('echo', { headers: { authorization: 'Bearer not.a.jwt' } }))
    expect(forged.status).toBe(401)
    expect(bodyOf(forged.body)).toEqual({ code: 401, message: 'Invalid JWT' })
    // The current API keys are no JWTs: not even the project's own passes the check in Authorization.
    for (const key of [keys.publishableKey, keys.secretKey]) {
      const opaque = await handler(request('echo', { headers: { apikey: key, authorization: `Bearer ${key}` } }))
      expect(opaque.status).toBe(401)
      expect(bodyOf(opaque.body)).toEqual({ code: 401, message: 'Invalid JWT' })
    }
    expect((await handler(request('echo'))).status).toBe(200)
    const open = await handler(request('open-echo', { headers: {} }))
    expect(open.status).toBe(200)
    expect(bodyOf(open.body)).toEqual({ open: true })
  })
})

describe('functions runner reload', () => {
  let dir: string
  let reloading: ReturnType<typeof createFunctionsHandler>

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-functions-'))
    await mkdir(path.join(dir, '_shared'))
    await mkdir(path.join(dir, 'hello'))
    await writeFile(path.join(dir, '_shared/greeting.ts'), "export const greeting = 'first'\n")
    await writeFile(
      path.join(dir, 'hello/index.ts'),
      "import { greeting } from '../_shared/greeting.ts'\nDeno.serve(() => new Response(greeting))\n",
    )
    reloading = createFunctionsHandler(runnerContext(), { functionsDir: dir, log: (line) => logs.push(line) })
  })

  afterAll(async () => {
    await reloading?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('serves an edit to a shared module on the next request, without a restart', async () => {
    expect(String((await reloading(request('hello'))).body)).toBe('first')
    await writeFile(path.join(dir, '_shared/greeting.ts'), "export const greeting = 'second, edited'\n")
    expect(String((await reloading(request('hello'))).body)).toBe('second, edited')
  })

  it('lets a request in flight finish on the old code while the next one gets the edit', async () => {
    // The function tells a gate in this test when it holds the request, and waits for the gate to answer: the edit
    // lands while it is inside, whatever the machine's speed.
    let inside: () => void = () => undefined
    const entered = new Promise<void>((resolve) => (inside = resolve))
    let held: http.ServerResponse | undefined
    const gate = http.createServer((_req, res) => {
      held = res
      inside()
    })
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve))
    const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/inside`
    try {
      await mkdir(path.join(dir, 'slow'))
      await writeFile(
        path.join(dir, 'slow/index.ts'),
        "import { greeting } from '../_shared/greeting.ts'\n" +
          `Deno.serve(async (req) => { if (new URL(req.url).searchParams.has('wait')) await (await fetch('${gateUrl}')).text(); return new Response(greeting) })\n`,
      )
      expect(String((await reloading(request('slow'))).body)).toBe('second, edited')
      const inFlight = reloading(request('slow', { query: new URLSearchParams('wait=1') }))
      await entered
      await writeFile(path.join(dir, '_shared/greeting.ts'), "export const greeting = 'third'\n")
      const next = await reloading(request('slow'))
      held!.end('go')
      const first = await inFlight
      expect(first.status).toBe(200)
      expect(String(first.body)).toBe('second, edited')
      expect(String(next.body)).toBe('third')
    } finally {
      held?.end()
      gate.closeAllConnections()
      await new Promise((resolve) => gate.close(resolve))
    }
  })

  it('serves a function added while running', async () => {
    expect((await reloading(request('added'))).status).toBe(404)
    await mkdir(path.join(dir, 'added'))
    await writeFile(path.join(dir, 'added/index.ts'), "Deno.serve(() => new Response('new'))\n")
    expect(String((await reloading(request('added'))).body)).toBe('new')
  })
})
