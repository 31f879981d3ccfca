// The gateway in front of the APIs: apikey required (401 in Kong's shape), bearer JWTs verified (forged or
// expired → 401 in PostgREST's shape), CORS on every answer, the 1 MB body limit, the client IP handed
// to Postgres, and a failing handler answered with 500 while the server keeps serving.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from './gateway'
import { signJwt } from './keys'
import { clientFor, engines, forgedToken, startTestBackend, userToken, type TestBackend } from './testing/rest-fixture'
import { REST_TEST_SQL } from './testing/rest-schema'

describe.each(engines)('gateway (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, REST_TEST_SQL)
  })
  afterAll(async () => {
    await b?.close()
  })

  it('refuses a request without an apikey with 401', async () => {
    const res = await fetch(`${b.apiUrl}/rest/v1/gw_books`)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ message: 'No API key found in request' })
  })

  it('refuses an apikey that is not one of the project keys', async () => {
    const res = await fetch(`${b.apiUrl}/rest/v1/gw_books`, { headers: { apikey: await forgedToken('x') } })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ message: 'Invalid API key' })
    const userAsKey = await fetch(`${b.apiUrl}/auth/v1/settings`, {
      headers: { apikey: await userToken('00000000-0000-4000-8000-000000000001') },
    })
    expect(userAsKey.status).toBe(401)
  })

  it('accepts the apikey as a query parameter', async () => {
    const res = await fetch(`${b.apiUrl}/rest/v1/gw_books?select=id&id=eq.1&apikey=${b.anonKey}`)
    expect(res.status).toBe(200)
  })

  it('answers a forged bearer token with 401 PGRST301 through supabase-js', async () => {
    const client = clientFor(b.apiUrl, b.anonKey, await forgedToken('00000000-0000-4000-8000-000000000001'))
    const { status, error } = await client.from('gw_books').select('id')
    expect(status).toBe(401)
    expect(error?.code).toBe('PGRST301')
  })

  it('answers an expired bearer token with 401 PGRST303', async () => {
    const expired = await userToken('00000000-0000-4000-8000-000000000001', -60)
    const { status, error } = await clientFor(b.apiUrl, b.anonKey, expired).from('gw_books').select('id')
    expect(status).toBe(401)
    expect(error).toMatchObject({ code: 'PGRST303', message: 'JWT expired' })
  })

  it('refuses a token for a role the API does not know', async () => {
    const token = await signJwt({ role: 'postgres', exp: Math.floor(Date.now() / 1000) + 60 })
    const { status } = await clientFor(b.apiUrl, b.anonKey, token).from('gw_books').select('id')
    expect(status).toBe(401)
  })

  it('answers CORS preflight and exposes Content-Range', async () => {
    const pre = await fetch(`${b.apiUrl}/rest/v1/gw_books`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,prefer',
      },
    })
    expect(pre.status).toBe(200)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    for (const h of ['apikey', 'authorization', 'x-client-info', 'prefer', 'content-profile', 'x-retry-count']) {
      expect(pre.headers.get('access-control-allow-headers')).toContain(h)
    }
    const get = await b.fetch('/rest/v1/gw_books?select=id')
    expect(get.headers.get('access-control-expose-headers')).toContain('content-range')
    const denied = await fetch(`${b.apiUrl}/rest/v1/gw_books`)
    expect(denied.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers a body over 1 MB with 413 and keeps serving', async () => {
    const big = JSON.stringify({ sku: 'big', label: 'x'.repeat(1024 * 1024) })
    const res = await b.fetch('/rest/v1/gw_items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    })
    expect(res.status).toBe(413)
    expect((await b.fetch('/rest/v1/gw_items?select=id&sku=eq.big')).status).toBe(200)
    expect((await b.db.query("select count(*)::int as n from gw_items where sku = 'big'")).rows[0]).toEqual({ n: 0 })
  })

  it('hands the client IP to Postgres in request.headers x-forwarded-for, never the one a client wrote', async () => {
    expect((await b.anon().rpc('gw_request_ip')).data).toBe('127.0.0.1')
    const res = await b.fetch('/rest/v1/rpc/gw_request_ip', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.9', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(await res.json()).toBe('127.0.0.1')
  })

  it('answers unknown paths with 404 and mounts /auth/v1', async () => {
    expect((await b.fetch('/nothing/here')).status).toBe(404)
    const health = await fetch(`${b.apiUrl}/auth/v1/health`)
    expect(health.status).toBe(200)
  })
})

describe('gateway failures', () => {
  let server: http.Server
  let url: string
  let calls = 0
  beforeAll(async () => {
    const boom = async () => {
      calls += 1
      if (calls % 2 === 1) throw new Error('handler bug')
      return { status: 200, body: { ok: true } }
    }
    server = http.createServer(createGateway({ routes: () => ({ auth: boom, rest: boom, functions: boom }) }))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('answers a throwing handler with 500 JSON in the API shape and serves the next request', async () => {
    const { anonKey } = await import('./keys').then((k) => k.apiKeys())
    const first = await fetch(`${url}/rest/v1/t`, { headers: { apikey: anonKey } })
    expect(first.status).toBe(500)
    expect(await first.json()).toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal server error' })
    const second = await fetch(`${url}/rest/v1/t`, { headers: { apikey: anonKey } })
    expect(second.status).toBe(200)
  })
})
