// Issue 10, attack 2: a client-written X-Forwarded-For was believed as the client IP everywhere (gateway
// limits, the SQL that records clicks, the edge functions). Each attack is performed as an attacker would
// and must fail; beside it, the honest path (a trusted proxy's header, distinct real visitors) still works.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientIp } from '../supabase/functions/_shared/http.ts'
import { normalizeIp, resolveClientIp } from './client-ip'
import type { ApiRequest } from './context'
import { createGateway } from './gateway'
import { apiKeys } from './keys'
import { engine, forgedIp, nextIp, startTrustBackend, type TrustBackend } from './testing/trust-backend'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'

describe('the gateway resolves one client IP', () => {
  /** A gateway whose APIs only record what they were handed. */
  async function gateway(clientIpHeader?: string) {
    const seen: ApiRequest[] = []
    const record = async (req: ApiRequest) => {
      seen.push(req)
      return { status: 200, body: {} }
    }
    const server = http.createServer(
      createGateway({ routes: () => ({ auth: record, rest: record, functions: record }), clientIpHeader }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return { seen, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
  }
  let key = ''
  beforeAll(async () => {
    key = (await apiKeys()).anonKey
  })

  it('believes no header by default: a forged X-Forwarded-For and X-Real-IP become the socket address for every API', async () => {
    const g = await gateway()
    try {
      for (const path of ['/auth/v1/health', '/rest/v1/anything', '/functions/v1/anything']) {
        await fetch(`${g.url}${path}`, {
          headers: { apikey: key, 'x-forwarded-for': '198.51.100.77', 'x-real-ip': '198.51.100.78' },
        })
      }
      expect(g.seen).toHaveLength(3)
      for (const req of g.seen) {
        expect(req.ip).toBe('127.0.0.1')
        expect(req.headers['x-forwarded-for']).toBe('127.0.0.1')
        expect(req.headers['x-real-ip']).toBe('127.0.0.1')
      }
    } finally {
      await g.close()
    }
  })

  it("behind a trusted proxy, believes only the proxy's header, and of a list only the entry the proxy added", async () => {
    const realIp = await gateway('x-real-ip')
    const forwarded = await gateway('x-forwarded-for')
    try {
      await fetch(`${realIp.url}/rest/v1/x`, {
        headers: { apikey: key, 'x-real-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1' },
      })
      await fetch(`${forwarded.url}/rest/v1/x`, {
        headers: { apikey: key, 'x-forwarded-for': '198.51.100.1, 203.0.113.8' },
      })
      // A malformed value is not an address: the socket's is used instead of passing garbage to SQL.
      await fetch(`${realIp.url}/rest/v1/x`, { headers: { apikey: key, 'x-real-ip': "1.2.3.4'; drop table x" } })
      expect(realIp.seen.map((r) => [r.ip, r.headers['x-forwarded-for'], r.headers['x-real-ip']])).toEqual([
        ['203.0.113.7', '203.0.113.7', '203.0.113.7'],
        ['127.0.0.1', '127.0.0.1', '127.0.0.1'],
      ])
      expect(forwarded.seen[0]!.ip).toBe('203.0.113.8')
    } finally {
      await Promise.all([realIp.close(), forwarded.close()])
    }
  })

  it('edge functions read the address the gateway wrote into x-real-ip, never a forged X-Forwarded-For', () => {
    const req = new Request('http://fn.test', {
      headers: { 'x-real-ip': '203.0.113.5', 'x-forwarded-for': '10.9.9.9' },
    })
    expect(clientIp(req)).toBe('203.0.113.5')
    expect(clientIp(new Request('http://fn.test', { headers: { 'x-forwarded-for': '10.9.9.9' } }))).toBe('unknown')
    // Hosted: the operator names the platform's header (CLIENT_IP_HEADER secret); a list's last entry counts.
    const hosted = new Request('http://fn.test', {
      headers: { 'cf-connecting-ip': '198.51.100.2', 'x-forwarded-for': '10.9.9.9, 198.51.100.3' },
    })
    expect(clientIp(hosted, 'cf-connecting-ip')).toBe('198.51.100.2')
    expect(clientIp(hosted, 'x-forwarded-for')).toBe('198.51.100.3')
  })

  it('normalises the forms proxies write and refuses what is not an address', () => {
    expect(normalizeIp('203.0.113.9:51234')).toBe('203.0.113.9')
    expect(normalizeIp('[2001:DB8::1]:443')).toBe('2001:db8::1')
    expect(normalizeIp('::ffff:198.51.100.4')).toBe('198.51.100.4')
    expect(normalizeIp('unknown')).toBeNull()
    expect(resolveClientIp({ 'x-real-ip': 'not-an-ip' }, '::ffff:127.0.0.1', 'x-real-ip')).toBe('127.0.0.1')
  })
})

describe(`client IP through the backend (${engine})`, () => {
  let b: TrustBackend
  let code: string
  beforeAll(async () => {
    b = await startTrustBackend({
      seed: true,
      prepare: (db) =>
        db.exec(`
      create function public.trust_request_headers() returns json language sql stable
        as $$ select nullif(current_setting('request.headers', true), '')::json $$;
      grant execute on function public.trust_request_headers() to anon;`),
    })
    code = (
      await b.db.query<{ unified_code: string }>(
        "select unified_code from public.audience_sources where status = 'approved' order by created_at limit 1",
      )
    ).rows[0]!.unified_code
  })
  afterAll(async () => {
    await b?.close()
  })

  it('SQL reads the address the proxy set, not the one the client forged', async () => {
    const res = await b.fetch('/rest/v1/rpc/trust_request_headers', '203.0.113.40', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.99' },
      body: '{}',
    })
    expect(await res.json()).toMatchObject({ 'x-forwarded-for': '203.0.113.40', 'x-real-ip': '203.0.113.40' })
  })

  it('attack: a fresh forged X-Forwarded-For per click does not make every click count', async () => {
    const visitor = nextIp()
    const results = []
    for (let i = 0; i < 4; i++) {
      const client = b.client(visitor, { 'x-forwarded-for': forgedIp(), 'user-agent': BROWSER })
      const { data, error } = await client.rpc('track_audience_source_click', { unified_code: code, device_info: {} })
      expect(error).toBeNull()
      results.push(data as { counted: boolean; not_counted_reason: string | null })
    }
    expect(results.map((r) => r.counted)).toEqual([true, false, false, false])
    expect(results.slice(1).every((r) => r.not_counted_reason === 'duplicate_visitor')).toBe(true)
    const stored = await b.db.query<{ ip: string }>('select distinct ip from public.link_clicks where ip = $1', [
      visitor,
    ])
    expect(stored.rows).toEqual([{ ip: visitor }])
  })

  it('honest: distinct visitors behind the proxy each count', async () => {
    for (let i = 0; i < 3; i++) {
      const { data } = await b
        .client(nextIp(), { 'user-agent': BROWSER })
        .rpc('track_audience_source_click', { unified_code: code, device_info: {} })
      expect(data).toMatchObject({ counted: true, not_counted_reason: null })
    }
  })

  it('attack: forging X-Forwarded-For does not empty an edge function’s per-IP limit; another address still gets through', async () => {
    // send-backup-confirmation allows 20 requests an hour per IP (each for a different address here).
    const attacker = nextIp()
    const call = (ip: string, i: number, forged?: string) =>
      b.fetch('/functions/v1/send-backup-confirmation', ip, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(forged ? { 'x-forwarded-for': forged } : {}) },
        body: JSON.stringify({ email: `nobody-${i}-${Date.now()}@example.com` }),
      })
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) statuses.push((await call(attacker, i, forgedIp())).status)
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
    expect((await call(nextIp(), 99)).status).toBe(200)
  })
})
