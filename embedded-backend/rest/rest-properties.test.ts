// Property-based tests: hostile strings (quotes, grammar characters, SQL, NUL, unicode, long runs) in
// every position of the query string, the headers and the body. The backend must always answer with a
// 4xx or the correct result, never a 5xx, and must never change data it was not asked to change.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'
import { REST_TEST_SQL } from '../testing/rest-schema'

const FRAGMENTS = [
  "'",
  '"',
  '\\',
  ';',
  '--',
  '/*',
  '*/',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  '.',
  ':',
  '::',
  '->',
  '->>',
  '!',
  '!inner',
  '*',
  '%',
  '&',
  '=',
  '?',
  '#',
  '+',
  ' ',
  '\u0000',
  '\n',
  'é',
  '💥',
  'eq.',
  'not.',
  'in.(',
  'or=(',
  'is.null',
  'select',
  "'; drop table gw_books; --",
  '" or 1=1 --',
  '$1',
  'pg_sleep(5)',
  'gw_books',
  'title',
  'id',
  'gw_authors(*)',
  'x'.repeat(300),
  '1e309',
  '-1',
  '99999999999999999999',
  'null',
  'true',
  '{"a":',
  '\uFFFF',
  '\uD800',
]

/** Lone surrogates cannot travel as UTF-8 at all; the client would already have replaced them. */
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

const hostile = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc
      .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 6 })
      .map((a) => a.join('')),
  )
  .map(wellFormed)
/** What fits in an HTTP header value: printable ASCII. */
const headerSafe = hostile.map((s) => s.replace(/[^\x20-\x7e]/g, ''))
const RUNS = { numRuns: 60 }

describe.each(engines)('REST under hostile input (%s)', (engine) => {
  let b: TestBackend
  let before: string
  const checksum = async () =>
    (
      await b.db.query<{ sum: string }>(
        `select (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from gw_authors x)
          || (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from gw_books x)
          || (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from gw_reviews x)
          || (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from gw_notes x) as sum`,
      )
    ).rows[0].sum
  const fine = (status: number, what: string) => expect(status < 500 && status !== 0, `${what} → ${status}`).toBe(true)

  beforeAll(async () => {
    b = await startTestBackend(
      engine,
      `${REST_TEST_SQL}; revoke insert, update, delete on gw_authors, gw_books, gw_reviews from anon;`,
    )
    before = await checksum()
  })
  afterAll(async () => {
    if (b) expect(await checksum()).toBe(before)
    await b?.close()
  })

  it('survives hostile table and function names in the path', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (s) => {
        fine((await b.fetch(`/rest/v1/${encodeURIComponent(s)}`)).status, `table ${JSON.stringify(s)}`)
        fine(
          (await b.fetch(`/rest/v1/rpc/${encodeURIComponent(s)}`, { method: 'POST', body: '{}' })).status,
          `rpc ${JSON.stringify(s)}`,
        )
      }),
      RUNS,
    )
  })

  it('survives hostile select, order, limit, offset and or= parameters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('select', 'order', 'limit', 'offset', 'or', 'and', 'not.or', 'columns', 'on_conflict'),
        hostile,
        async (key, s) => {
          const q = new URLSearchParams({ [key]: s })
          fine((await b.fetch(`/rest/v1/gw_books?${q}`)).status, `${key}=${JSON.stringify(s)}`)
        },
      ),
      RUNS,
    )
  })

  it('survives hostile filter columns, operators and values, through supabase-js too', async () => {
    const ops = [
      'eq',
      'neq',
      'gt',
      'gte',
      'lt',
      'lte',
      'like',
      'ilike',
      'is',
      'in',
      'cs',
      'cd',
      'ov',
      'fts',
      'match',
      'zz',
    ]
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...ops), fc.boolean(), hostile, async (column, op, negate, value) => {
        const q = new URLSearchParams({ [column]: `eq.1`, title: `${negate ? 'not.' : ''}${op}.${value}` })
        fine((await b.fetch(`/rest/v1/gw_books?select=id&${q}`)).status, `filter ${q}`)
        const { status } = await b.anon().from('gw_books').select('id, gw_reviews(stars)').filter(column, op, value)
        fine(status, `supabase-js filter ${JSON.stringify([column, op, value])}`)
        const embedded = await b
          .anon()
          .from('gw_books')
          .select('id, gw_reviews!inner(stars)')
          .eq(`gw_reviews.${column}`, value)
        fine(embedded.status, `embedded filter ${JSON.stringify(column)}`)
      }),
      RUNS,
    )
  })

  it('finds exactly the row whose text equals a hostile value (eq and in are bound, not spliced)', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(hostile, async (s) => {
        const sku = `p-${n++}`
        const created = await b.anon().from('gw_items').insert({ sku, label: s }).select('label').single()
        if (created.error) {
          fine(created.status, `insert ${JSON.stringify(s)}`)
          return
        }
        expect(created.data).toEqual({ label: s })
        const eq = await b.anon().from('gw_items').select('sku').eq('label', s)
        expect(eq.data).toEqual([{ sku }])
        // supabase-js sends '' as `in.()` (an empty list, as in PostgREST) and quotes only `,()`.
        if (s !== '' && s.trim() === s && !/["\\]/.test(s)) {
          const inList = await b.anon().from('gw_items').select('sku').in('label', [s])
          expect(inList.data).toEqual([{ sku }])
        }
        await b.db.query('delete from gw_items where sku = $1', [sku])
      }),
      RUNS,
    )
  })

  it('survives hostile bodies and keys, and writes hostile values exactly', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (key, value) => {
        fine(
          (
            await b.fetch('/rest/v1/gw_items', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: value,
            })
          ).status,
          `raw body ${JSON.stringify(value)}`,
        )
        // Arbitrary keys on purpose: the typed client would reject them, the wire must not break on them.
        const odd = await b
          .anon()
          .from('gw_items')
          .insert({ [key]: value } as never)
        fine(odd.status, `insert key ${JSON.stringify(key)}`)
        const patch = await b
          .anon()
          .from('gw_books')
          .update({ [key]: value, title: value })
          .eq('id', 1)
        fine(patch.status, `patch ${JSON.stringify(key)}`)
        const del = await b.anon().from('gw_books').delete().or(value)
        fine(del.status, `delete or=${JSON.stringify(value)}`)
        await b.db.query("delete from gw_items where sku not like 'w-%'")
      }),
      RUNS,
    )
  })

  it('survives hostile rpc arguments and returns JSON payloads unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (key, value) => {
        fine((await b.anon().rpc('gw_add', { [key]: value })).status, `rpc arg ${JSON.stringify(key)}`)
        fine((await b.anon().rpc('gw_add', { a: value }, { get: true })).status, `rpc get ${JSON.stringify(value)}`)
        const echo = await b.anon().rpc('gw_echo', { payload: { [key]: value } })
        if (echo.error) fine(echo.status, `echo ${JSON.stringify(value)}`)
        else expect(echo.data).toEqual({ got: { [key]: value } })
      }),
      RUNS,
    )
  })

  it('survives hostile Prefer, Accept, Range and profile headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('prefer', 'accept', 'range', 'accept-profile', 'content-profile', 'content-type'),
        headerSafe,
        async (name, value) => {
          fine(
            (await b.fetch('/rest/v1/gw_books?select=id', { headers: { [name]: value } })).status,
            `GET ${name}: ${value}`,
          )
          const res = await b.fetch('/rest/v1/gw_items', {
            method: 'POST',
            headers: { [name]: value, 'content-type': 'application/json' },
            body: '{"sku":"h-1"}',
          })
          fine(res.status, `POST ${name}: ${value}`)
          await b.db.query("delete from gw_items where sku = 'h-1'")
        },
      ),
      RUNS,
    )
  })
})
