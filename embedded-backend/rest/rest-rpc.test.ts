// rpc/<fn> by POST and GET through supabase-js, for every return shape, and PostgREST's error codes and
// statuses for the mistakes a client can make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'
import { REST_TEST_SQL } from '../testing/rest-schema'

describe.each(engines)('REST rpc and errors (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, REST_TEST_SQL)
  })
  afterAll(async () => {
    await b?.close()
  })

  describe('rpc', () => {
    it('returns a scalar for POST with named arguments, using defaults for missing ones', async () => {
      expect(await b.anon().rpc('gw_add', { a: 2, b: 3 })).toMatchObject({ data: 5, status: 200 })
      expect((await b.anon().rpc('gw_add', { a: 2 })).data).toBe(3)
    })

    it('counts a scalar or single-row call as one row: Content-Range 0-0/1 for GET, POST and HEAD', async () => {
      expect(await b.anon().rpc('gw_add', { a: 2, b: 3 }, { count: 'exact' })).toMatchObject({
        data: 5,
        count: 1,
        status: 200,
      })
      expect(await b.anon().rpc('gw_add', { a: 2 }, { get: true, count: 'exact' })).toMatchObject({ data: 3, count: 1 })
      expect(await b.anon().rpc('gw_add', { a: 2 }, { head: true, count: 'exact' })).toMatchObject({
        data: null,
        count: 1,
        status: 200,
      })
      expect(await b.anon().rpc('gw_first_book', {}, { count: 'exact' })).toMatchObject({ count: 1, data: { id: 1 } })
      const uncounted = await b.fetch('/rest/v1/rpc/gw_add?a=1')
      expect(uncounted.headers.get('content-range')).toBe('0-0/*')
    })

    it('takes arguments from the query string for GET', async () => {
      const res = await b.anon().rpc('gw_add', { a: 40, b: 2 }, { get: true })
      expect(res.data).toBe(42)
    })

    it('returns setof rows as an array that can be filtered, selected and embedded', async () => {
      const { data } = await b
        .anon()
        .rpc('gw_books_by_status', { p_status: 'published' })
        .select('title, author:gw_authors!author_id(name)')
        .gt('id', 1)
      expect(data).toEqual([{ title: 'Gamma', author: { name: 'Ben' } }])
    })

    it('returns a single composite as an object and RETURNS TABLE as an array', async () => {
      expect((await b.anon().rpc('gw_first_book')).data).toMatchObject({ id: 1, title: 'Alpha' })
      expect((await b.anon().rpc('gw_author_stats', { p_author: 1 })).data).toEqual([{ author: 'Ann', books: 2 }])
    })

    it('returns setof scalars as an array, jsonb as JSON, and void as 204', async () => {
      expect((await b.anon().rpc('gw_titles')).data).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta'])
      expect((await b.anon().rpc('gw_echo', { payload: { a: [1, 'x'] } })).data).toEqual({ got: { a: [1, 'x'] } })
      const v = await b.anon().rpc('gw_noop')
      expect(v).toMatchObject({ status: 204, data: null, error: null })
    })

    it('runs as the JWT role with its claims', async () => {
      expect((await b.anon().rpc('gw_whoami')).data).toBe('anon')
      const sub = '00000000-0000-4000-8000-0000000000cc'
      expect((await (await b.user(sub)).rpc('gw_whoami')).data).toBe(sub)
    })

    it('turns raise exception into 400 P0001 with the message', async () => {
      const { status, error } = await b.anon().rpc('gw_fail', { p_message: 'Insufficient balance' })
      expect(status).toBe(400)
      expect(error).toMatchObject({ code: 'P0001', message: 'Insufficient balance' })
    })

    it('answers 404 PGRST202 for an unknown function or unknown arguments', async () => {
      const missing = await b.anon().rpc('gw_nope')
      expect(missing.status).toBe(404)
      expect(missing.error?.code).toBe('PGRST202')
      const wrongArgs = await b.anon().rpc('gw_add', { x: 1 })
      expect(wrongArgs.error).toMatchObject({
        code: 'PGRST202',
        message: 'Could not find the function public.gw_add(x) in the schema cache',
        // PostgREST's wording: "parameter" for one name, "parameters" for more.
        details:
          'Searched for the function public.gw_add with parameter x or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      })
      const twoWrong = await b.anon().rpc('gw_add', { x: 1, y: 2 })
      expect(twoWrong.error?.details).toBe(
        'Searched for the function public.gw_add with parameters x, y or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      )
    })

    it('refuses a function without execute permission: 401 for anon, 403 signed in', async () => {
      expect((await b.anon().rpc('gw_secret')).status).toBe(401)
      expect((await (await b.user('00000000-0000-4000-8000-0000000000dd')).rpc('gw_secret')).status).toBe(403)
      expect((await b.service().rpc('gw_secret')).data).toBe(42)
    })
  })

  describe('errors', () => {
    it('maps unique and foreign key violations to 409', async () => {
      const dup = await b.anon().from('gw_authors').insert({ name: 'Ann' })
      expect(dup).toMatchObject({ status: 409, error: { code: '23505' } })
      const fk = await b.anon().from('gw_books').insert({ title: 'x', author_id: 999 })
      expect(fk).toMatchObject({ status: 409, error: { code: '23503' } })
    })

    it('maps not-null, check and bad input to 400', async () => {
      expect(await b.anon().from('gw_books').insert({ title: null, author_id: 1 })).toMatchObject({
        status: 400,
        error: { code: '23502' },
      })
      expect(await b.anon().from('gw_books').insert({ title: 't', author_id: 1, status: 'weird' })).toMatchObject({
        status: 400,
        error: { code: '23514' },
      })
      expect(await b.anon().from('gw_books').select().eq('id', 'abc')).toMatchObject({
        status: 400,
        error: { code: '22P02' },
      })
    })

    it('answers 404 for an unknown table and 400 for an unknown column', async () => {
      const table = await b.anon().from('gw_missing').select()
      expect(table).toMatchObject({
        status: 404,
        error: {
          code: 'PGRST205',
          message: "Could not find the table 'public.gw_missing' in the schema cache",
          hint: null,
        },
      })
      // PostgREST 13 names a close table name (see rest/fuzzy.ts) in the hint.
      const typo = await b.anon().from('gw_boks').select()
      expect(typo.error).toMatchObject({ code: 'PGRST205', hint: "Perhaps you meant the table 'public.gw_books'" })
      const selected = await b.anon().from('gw_books').select('nope')
      expect(selected).toMatchObject({
        status: 400,
        error: { code: '42703', message: 'column gw_books.nope does not exist' },
      })
      // Inside embeds PostgREST's statement names the table <name>_<depth>, and Postgres's message says so.
      const embedded = await b.anon().from('gw_books').select('title, gw_reviews(sum)')
      expect(embedded).toMatchObject({
        status: 400,
        error: { code: '42703', message: 'column gw_reviews_1.sum does not exist', details: null, hint: null },
      })
      const nested = await b.anon().from('gw_authors').select('name, gw_books!author_id(title, gw_reviews(nope))')
      expect(nested.error).toMatchObject({ code: '42703', message: 'column gw_reviews_2.nope does not exist' })
      const written = await b.anon().from('gw_books').insert({ nope: 1 })
      expect(written).toMatchObject({ status: 400, error: { code: 'PGRST204' } })
    })

    it('answers 400 PGRST100 for grammar it cannot parse', async () => {
      for (const q of ['select=id,(', 'id=zz.1', 'or=(id.eq.1', 'order=id.sideways', 'limit=-1', 'id=is.maybe']) {
        const res = await b.fetch(`/rest/v1/gw_books?${q}`)
        expect(res.status, q).toBe(400)
        expect((await res.json()).code, q).toBe('PGRST100')
      }
    })

    it('answers 400 PGRST102 for a body that is not JSON', async () => {
      const res = await b.fetch('/rest/v1/gw_items', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"sku":',
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ code: 'PGRST102', message: 'Empty or invalid json' })
    })

    it('only exposes the public schema', async () => {
      const res = await b.fetch('/rest/v1/users', { headers: { 'accept-profile': 'auth' } })
      expect(res.status).toBe(406)
      expect((await res.json()).code).toBe('PGRST106')
    })

    it('finds a table created after start without a restart', async () => {
      await b.db.exec(
        'create table gw_late (id int primary key); grant select on gw_late to anon; insert into gw_late values (7)',
      )
      await new Promise((r) => setTimeout(r, 1100))
      expect((await b.anon().from('gw_late').select('id')).data).toEqual([{ id: 7 }])
    })
  })
})
