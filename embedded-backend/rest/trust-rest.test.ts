// Issue 10, the REST API's share: attack 9 (GET and HEAD on /rpc wrote, so an image tag or a link
// prefetcher recorded clicks) and attack 10 (one anonymous request with a pathological `match` regex
// stalled every other request; no statement timeout for the API roles). Performed with plain fetch, as an
// attacker would, beside the honest path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PATTERN_LENGTH, patternProblem } from './regex-guard'
import { userToken } from '../testing/rest-fixture'
import { engine, nextIp, startTrustBackend, type TrustBackend } from '../testing/trust-backend'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
// Backreferences make Postgres's regex engine backtrack: on this row's 3,600 characters it runs for
// tens of seconds (measured on PostgreSQL 15: 0.46 s at 900 characters, growing with the cube).
const PATHOLOGICAL = '(.+)+\\1(.+)+\\2$'

let b: TrustBackend
let code: string
let sourceId: string
beforeAll(async () => {
  b = await startTrustBackend({
    seed: true,
    prepare: (db) =>
      db.exec(`
    create table public.trust_notes (id integer primary key, body text not null);
    alter table public.trust_notes enable row level security;
    create policy "Anyone can read trust notes" on public.trust_notes for select to anon, authenticated using (true);
    grant select on public.trust_notes to anon, authenticated;
    insert into public.trust_notes values (1, repeat('abc', 1200)), (2, 'abcabc');
    create function public.trust_statement_timeout() returns text language sql stable
      as $$ select current_setting('statement_timeout') $$;
    grant execute on function public.trust_statement_timeout() to anon, authenticated, service_role;`),
  })
  const source = (
    await b.db.query<{ id: string; unified_code: string }>(
      "select id, unified_code from public.audience_sources where status = 'approved' order by created_at limit 1",
    )
  ).rows[0]!
  code = source.unified_code
  sourceId = source.id
})
afterAll(async () => {
  await b?.close()
})

const clicks = async () =>
  (
    await b.db.query<{ n: number }>('select count(*)::int as n from public.link_clicks where audience_source_id = $1', [
      sourceId,
    ])
  ).rows[0]!.n

describe(`read-only GET and HEAD on /rpc (${engine})`, () => {
  it('attack: GET and HEAD on track_audience_source_click (an image tag, a prefetcher) record nothing: 405', async () => {
    const before = await clicks()
    const url = `${b.apiUrl}/rest/v1/rpc/track_audience_source_click?unified_code=${code}&apikey=${b.anonKey}`
    const get = await fetch(url, { headers: { 'user-agent': BROWSER } })
    expect(get.status).toBe(405)
    expect(await get.json()).toMatchObject({
      code: '25006',
      message: 'cannot execute INSERT in a read-only transaction',
    })
    const head = await fetch(url, { method: 'HEAD', headers: { 'user-agent': BROWSER } })
    expect(head.status).toBe(405)
    expect(await clicks()).toBe(before)
  })

  it('honest: POST records the click, and GET still reads', async () => {
    const before = await clicks()
    const { data, error } = await b
      .client(nextIp(), { 'user-agent': BROWSER })
      .rpc('track_audience_source_click', { unified_code: code, device_info: {} })
    expect(error).toBeNull()
    expect(data).toMatchObject({ source_id: sourceId, counted: true })
    expect(await clicks()).toBe(before + 1)
    const read = await b.fetch(`/rest/v1/rpc/trust_statement_timeout`, nextIp())
    expect(read.status).toBe(200)
  })
})

describe(`statement_timeout of the API roles (${engine})`, () => {
  it('runs each request with its role’s own timeout from the catalog: anon 3 s, authenticated 8 s', async () => {
    expect(await (await b.fetch('/rest/v1/rpc/trust_statement_timeout', nextIp())).json()).toBe('3s')
    const signedIn = await b.fetch('/rest/v1/rpc/trust_statement_timeout', nextIp(), {
      headers: { authorization: `Bearer ${await userToken('00000000-0000-4000-8000-000000000010')}` },
    })
    expect(await signedIn.json()).toBe('8s')
  })

  it('honest: an ordinary match filter answers', async () => {
    const res = await b.fetch(
      `/rest/v1/trust_notes?select=id&${new URLSearchParams({ body: 'match.^(abc)+$' })}&order=id`,
      nextIp(),
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([{ id: 1 }, { id: 2 }])
  })

  it.runIf(engine === 'postgres')(
    'attack: a pathological match from anon is cancelled after 3 s (500, 57014) while other requests are answered',
    async () => {
      const started = Date.now()
      const slow = b.fetch(
        `/rest/v1/trust_notes?select=id&${new URLSearchParams({ body: `match.${PATHOLOGICAL}` })}`,
        nextIp(),
      )
      let slowAnswered = false
      void slow.then(() => (slowAnswered = true))
      await new Promise((resolve) => setTimeout(resolve, 300))
      const other = await b.fetch('/rest/v1/trust_notes?select=id&id=eq.2', nextIp())
      expect(other.status).toBe(200)
      // Answered while the pathological match still runs: it waited on nothing of the other's. (Which comes
      // first, not how many milliseconds it took, so a busy machine cannot fail it.)
      expect(slowAnswered).toBe(false)
      const res = await slow
      const elapsed = Date.now() - started
      expect(res.status).toBe(500)
      expect(await res.json()).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' })
      // Cancelled by the 3 s statement timeout, never sooner.
      expect(elapsed).toBeGreaterThanOrEqual(2900)
    },
  )

  it.runIf(engine === 'pglite')(
    'attack: PGlite cannot cancel a statement, so a pathological match is refused up front with a 400 that says why',
    async () => {
      const refused = [
        `body=${encodeURIComponent(`match.${PATHOLOGICAL}`)}`,
        `or=${encodeURIComponent('(id.eq.1,body.imatch.(a+)+b)')}`,
        `body=${encodeURIComponent(`not.match.${'a'.repeat(MAX_PATTERN_LENGTH + 1)}`)}`,
      ]
      for (const filter of refused) {
        // The guard's own 400 (PGRST100 with its hint) shows the pattern never reached the database.
        const res = await b.fetch(`/rest/v1/trust_notes?select=id&${filter}`, nextIp())
        expect(res.status).toBe(400)
        const body = await res.json()
        expect(body.code).toBe('PGRST100')
        expect(body.message).toMatch(/^This i?match pattern is not allowed: /)
        expect(body.hint).toBe(
          `Use like or ilike, or a ${body.message.includes('imatch') ? 'imatch' : 'match'} pattern of at most ${MAX_PATTERN_LENGTH} characters without backreferences or repeated groups that contain repetition.`,
        )
      }
    },
  )
})

describe('the PGlite regex guard', () => {
  it.each([
    ['(ab)c\\1', 'it uses a backreference'],
    ['^(a+)+$', 'it repeats a group that contains repetition'],
    ['(?:x*y){2,}', 'it repeats a group that contains repetition'],
    ['((ab)*c)*', 'it repeats a group that contains repetition'],
  ])('refuses %s', (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem)
  })

  it.each(['^(abc)+$', 'news(letter)?s*', '[(+*)]+', '\\d{3}-\\d{4}', '(a|b)+c', '[[:alpha:]]+\\.(com|org)$'])(
    'accepts %s',
    (pattern) => {
      expect(patternProblem(pattern)).toBeNull()
    },
  )
})
