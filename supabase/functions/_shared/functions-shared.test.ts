// The edge functions' pure helpers (supabase/functions/_shared), run under Node: they use only web APIs.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { canonicalEmail, foldEmail, isDisposableEmail, isValidEmail, normalizeEmail } from './email-address.ts'
import { DISPOSABLE_DOMAINS } from './disposable-domains.ts'
import { publishableKey, serviceKey } from './env.ts'
import { constantTimeEqual, requireFunctionsSecret } from './functions-secret.ts'
import { HttpError } from './http.ts'
import { budgetedFetch, runBudget } from './run-budget.ts'
import { signatureTimestampProblem } from './stripe-signature.ts'
import { newToken, sha256Hex } from './tokens.ts'

describe('email addresses', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.co.uk', "o'neil@example.ie", 'x_y-z@a-b.io'])(
    'accepts %s',
    (email) => {
      expect(isValidEmail(email)).toBe(true)
    },
  )

  it.each([
    '',
    'plain',
    'a@b',
    'a@@example.com',
    'a b@example.com',
    '.a@example.com',
    'a..b@example.com',
    'a@-example.com',
    `${'a'.repeat(65)}@example.com`,
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false)
  })

  it('normalises case and surrounding space', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com')
  })

  it('folds +tags the way the database fold_email does', () => {
    expect(foldEmail('Ann+News@Example.com')).toBe('ann@example.com')
    expect(foldEmail('ann+a+b@example.com')).toBe('ann@example.com')
    expect(foldEmail('ann@example.com')).toBe('ann@example.com')
  })

  it('keys one inbox the way the database canonical_email does: +tags, and Gmail dots and googlemail.com', () => {
    for (const spelling of [
      'Ann.Lee@gmail.com',
      'annlee+news@googlemail.com',
      'a.n.n.l.e.e+x@GMail.com',
      ' ANNLEE@gmail.com ',
    ])
      expect(canonicalEmail(spelling)).toBe('annlee@gmail.com')
    expect(canonicalEmail('ann.lee+news@example.com')).toBe('ann.lee@example.com')
  })

  it('refuses disposable domains and their subdomains, not lookalikes', () => {
    expect(DISPOSABLE_DOMAINS.size).toBeGreaterThan(300)
    expect(isDisposableEmail('x@mailinator.com')).toBe(true)
    expect(isDisposableEmail('x@YOPMAIL.com')).toBe(true)
    expect(isDisposableEmail('x@eu.guerrillamail.com')).toBe(true)
    expect(isDisposableEmail('x@notmailinator.example.com')).toBe(false)
    expect(isDisposableEmail('x@gmail.com')).toBe(false)
    expect(isDisposableEmail('x@example.com')).toBe(false)
  })
})

describe('tokens', () => {
  it('are 32 random bytes in base64url, different every time', () => {
    const tokens = new Set(Array.from({ length: 100 }, newToken))
    expect(tokens.size).toBe(100)
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(t, 'base64url')).toHaveLength(32)
    }
  })

  it('hash to lower-case sha256 hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})

describe('Stripe-Signature timestamps', () => {
  const now = 1_800_000_000
  it('accepts a timestamp within 5 minutes either way, and refuses one further in the future or past', () => {
    expect(signatureTimestampProblem(`t=${now},v1=abc`, now)).toBeNull()
    expect(signatureTimestampProblem(`t=${now + 300},v1=abc`, now)).toBeNull()
    expect(signatureTimestampProblem(`t=${now - 300},v1=abc`, now)).toBeNull()
    expect(signatureTimestampProblem(`t=${now + 301},v1=abc`, now)).toBe('timestamp in the future')
    expect(signatureTimestampProblem(`t=${now + 365 * 86_400},v1=abc`, now)).toBe('timestamp in the future')
    expect(signatureTimestampProblem(`t=${now - 301},v1=abc`, now)).toBe('timestamp too old')
  })

  it('refuses a header without exactly one numeric timestamp', () => {
    for (const header of ['v1=abc', `t=${now},t=${now},v1=abc`, 't=soon,v1=abc', 'garbage'])
      expect(signatureTimestampProblem(header, now)).toBe('no single timestamp')
  })
})

describe('run budget (hosted limits)', () => {
  it('lets a run claim during its claim window only', () => {
    let now = 0
    const budget = runBudget(60_000, 110_000, () => now)
    expect(budget.canClaim()).toBe(true)
    now = 59_999
    expect(budget.canClaim()).toBe(true)
    now = 60_000
    expect(budget.canClaim()).toBe(false)
  })

  it('aborts a request still waiting when the run’s time is up, before the request’s own timeout', async () => {
    const server = http.createServer(() => {}) // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const budget = runBudget(10, 100)
      const started = performance.now()
      const failure = await budgetedFetch(
        budget,
        60_000,
      )(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).catch((error: Error) => error)
      expect(failure).toBeInstanceOf(Error)
      expect(budget.signal.aborted).toBe(true)
      expect(performance.now() - started).toBeLessThan(60_000)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})

/** Deno.env for the helpers that read it, holding `values` only. */
const denoEnv = (values: Record<string, string>) =>
  vi.stubGlobal('Deno', { env: { get: (name: string) => values[name] } })

describe('functions secret', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  const request = (headers: Record<string, string>) => new Request('http://x/functions/v1/f', { headers })

  it('compares whole values of any length', async () => {
    expect(await constantTimeEqual('a-secret', 'a-secret')).toBe(true)
    for (const other of ['a-secreT', 'a-secre', 'a-secret ', '', 'b'.repeat(200)])
      expect(await constantTimeEqual('a-secret', other)).toBe(false)
  })

  it('lets through the header equal to FUNCTIONS_SECRET, and refuses any other value with 403', async () => {
    denoEnv({ FUNCTIONS_SECRET: 'the-secret' })
    await expect(requireFunctionsSecret(request({ 'x-functions-secret': 'the-secret' }), 'No')).resolves.toBeUndefined()
    for (const headers of [
      {},
      { 'x-functions-secret': 'the-secreT' },
      { authorization: 'Bearer the-secret' },
    ] as Record<string, string>[]) {
      const refused = await requireFunctionsSecret(request(headers), 'Only the database').catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(HttpError)
      expect(refused).toMatchObject({ status: 403, message: 'Only the database' })
    }
  })

  it('refuses everyone, naming the setting, when FUNCTIONS_SECRET is not set', async () => {
    denoEnv({})
    await expect(requireFunctionsSecret(request({ 'x-functions-secret': '' }), 'No')).rejects.toThrow(
      /FUNCTIONS_SECRET is not set.*functions_secret/,
    )
  })
})

describe('API keys in the functions', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("prefer hosted's named secret and publishable keys, the default one first", () => {
    denoEnv({
      SUPABASE_SECRET_KEYS: JSON.stringify({ ci: 'sb_secret_ci', default: 'sb_secret_default' }),
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ web: 'sb_publishable_web' }),
      SUPABASE_SERVICE_ROLE_KEY: 'legacy-service',
      SUPABASE_ANON_KEY: 'legacy-anon',
    })
    expect(serviceKey()).toBe('sb_secret_default')
    expect(publishableKey()).toBe('sb_publishable_web')
  })

  it('fall back to the singular names, then to the legacy JWT keys', () => {
    denoEnv({ SUPABASE_SECRET_KEY: 'sb_secret_one', SUPABASE_ANON_KEY: 'legacy-anon' })
    expect(serviceKey()).toBe('sb_secret_one')
    expect(publishableKey()).toBe('legacy-anon')
    denoEnv({ SUPABASE_SECRET_KEYS: 'not json', SUPABASE_SERVICE_ROLE_KEY: 'legacy-service' })
    expect(serviceKey()).toBe('legacy-service')
    denoEnv({})
    expect(() => serviceKey()).toThrow('Missing environment variable SUPABASE_SERVICE_ROLE_KEY')
  })
})
