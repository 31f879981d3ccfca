// PostgREST 12.2 features beyond the app's everyday needs (plus 13's spread of to-many embeds), driven with
// supabase-js where it can express them and plain fetch where it cannot: aggregates, Prefer tx / handling /
// max-affected / timezone, range and quantified operators, counts on rpc, planned and estimated counts,
// many-to-many, view, computed and self-referencing embeds, upsert statuses, CSV, profiles and plans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'
import { REST_POSTGREST_SQL } from '../testing/rest-schema'
import { platformOf } from '../db/platform'

const API = { schemas: ['public', 'gw_extra'], db_aggregates_enabled: true, db_plan_enabled: true }

describe.each(engines)('PostgREST coverage (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, REST_POSTGREST_SQL, { api: API })
  })
  afterAll(async () => {
    await b?.close()
  })
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await b.fetch(`/rest/v1/${path}`, { headers })
    const text = await res.text()
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
    }
  }
  const rows = async (sql: string) => (await b.db.query(sql)).rows

  describe('aggregates', () => {
    it('counts an embedded resource per parent, with count for no children', async () => {
      const { data, error } = await b.anon().from('gw_users').select('username, gw_messages(count)').order('id')
      expect(error).toBeNull()
      expect(data).toEqual([
        { username: 'ann', gw_messages: [{ count: 3 }] },
        { username: 'ben', gw_messages: [{ count: 1 }] },
        { username: 'cy', gw_messages: [{ count: 0 }] },
      ])
    })

    it('applies sum, avg, min, max and count() over the whole table, with aliases and casts', async () => {
      const { data } = await b
        .anon()
        .from('gw_messages')
        .select('words.sum(), words.avg(), words.min(), words.max(), count()')
      expect(data).toEqual([{ sum: 8, avg: 2, min: 1, max: 3, count: 4 }])
      const cast = await get('gw_messages?select=mean:words.avg()::int,data->>a::int.sum()')
      expect(cast.body).toEqual([{ mean: 2, sum: 1 }])
    })

    it('groups by the other selected columns, and counts groups for Content-Range', async () => {
      const res = await get('gw_messages?select=user_id,total:words.sum(),count()&order=user_id', {
        prefer: 'count=exact',
      })
      expect(res.body).toEqual([
        { user_id: 1, total: 7, count: 3 },
        { user_id: 2, total: 1, count: 1 },
      ])
      expect(res.headers.get('content-range')).toBe('0-1/2')
    })

    it("aggregates inside an embed, grouped by the embed's own columns", async () => {
      const { data } = await b
        .anon()
        .from('gw_users')
        .select('username, gw_messages(channel_id, words.sum())')
        .eq('id', 1)
        .order('channel_id', { referencedTable: 'gw_messages' })
      expect(data).toEqual([
        {
          username: 'ann',
          gw_messages: [
            { channel_id: 1, sum: 5 },
            { channel_id: 2, sum: 2 },
          ],
        },
      ])
    })

    it('groups by a to-one embed and by spread columns', async () => {
      const byUser = (await get('gw_messages?select=words.sum(),gw_users(username)')).body as {
        sum: number
        gw_users: { username: string }
      }[]
      expect(byUser.sort((x, y) => x.sum - y.sum)).toEqual([
        { sum: 1, gw_users: { username: 'ben' } },
        { sum: 7, gw_users: { username: 'ann' } },
      ])
      const bySlug = (await get('gw_messages?select=words.sum(),...gw_channels(slug)')).body as {
        sum: number
        slug: string
      }[]
      expect(bySlug.sort((x, y) => x.slug.localeCompare(y.slug))).toEqual([
        { sum: 6, slug: 'general' },
        { sum: 2, slug: 'random' },
      ])
    })
  })

  it("lets the authenticator role's pgrst.db_aggregates_enabled = 'false' win over config.toml's true", async () => {
    const sql = async (set: string) =>
      (await platformOf(b.db)).as('supabase_admin', (db) =>
        db.exec(
          `do $$ begin execute format('alter role authenticator in database %I ${set}', current_database()); end $$`,
        ),
      )
    try {
      await sql("set pgrst.db_aggregates_enabled = ''false''")
      await b.reloadSchema()
      expect(await get('gw_messages?select=count()')).toMatchObject({ status: 400, body: { code: 'PGRST123' } })
    } finally {
      await sql('reset pgrst.db_aggregates_enabled')
      await b.reloadSchema()
    }
    expect(await get('gw_messages?select=count()')).toMatchObject({ status: 200, body: [{ count: 4 }] })
  })

  describe('aggregates in spreads (PostgREST 13)', () => {
    it('applies the aggregates of a to-one spread at the parent, grouped by its other fields', async () => {
      expect((await get('gw_messages?select=...gw_users(n:count())')).body).toEqual([{ n: 4 }])
      const byUser = await get('gw_messages?select=...gw_users(uid:id,n:count())&order=gw_users(uid).desc')
      expect(byUser.body).toEqual([
        { uid: 2, n: 1 },
        { uid: 1, n: 3 },
      ])
      const byChannel = await get('gw_messages?select=channel_id,...gw_users(total:id.sum())&order=channel_id')
      expect(byChannel.body).toEqual([
        { channel_id: 1, total: 4 },
        { channel_id: 2, total: 1 },
      ])
    })

    it('lifts aggregates through nested to-one spreads, with casts, ordered by a spread column', async () => {
      const res = await get(
        'gw_messages?select=...gw_channels(slug,...gw_users!owner_id(c:count()::text))&order=gw_channels(slug)',
      )
      expect(res.body).toEqual([
        { slug: 'general', c: '3' },
        { slug: 'random', c: '1' },
      ])
    })

    it('refuses aggregates in a to-many spread as PostgREST 13 does (400 PGRST127)', async () => {
      for (const select of ['username,...gw_messages(words.sum())', 'username,...gw_messages(count())']) {
        expect(await get(`gw_users?select=${select}`)).toMatchObject({
          status: 400,
          body: {
            code: 'PGRST127',
            message: 'Feature not implemented',
            details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
            hint: null,
          },
        })
      }
    })
  })

  describe('Prefer', () => {
    it('rolls back with tx=rollback yet answers as if committed, and keeps the row with tx=commit', async () => {
      const rolled = await b.anon().from('gw_categories').insert({ id: 9, name: 'tmp' }).select().rollback()
      expect(rolled).toMatchObject({ status: 201, data: [{ id: 9, name: 'tmp' }], error: null })
      expect(await rows('select * from gw_categories where id = 9')).toEqual([])
      const raw = await b.fetch('/rest/v1/gw_products?id=eq.1', {
        method: 'PATCH',
        body: JSON.stringify({ price: 99 }),
        headers: { 'content-type': 'application/json', prefer: 'tx=rollback, return=representation' },
      })
      expect(raw.status).toBe(200)
      expect(raw.headers.get('preference-applied')).toContain('tx=rollback')
      expect(await raw.json()).toEqual([{ id: 1, name: 'pen', price: 99 }])
      expect(await rows('select price::text from gw_products where id = 1')).toEqual([{ price: '1.50' }])
      const committed = await b.fetch('/rest/v1/gw_categories', {
        method: 'POST',
        body: JSON.stringify({ id: 9, name: 'kept' }),
        headers: { 'content-type': 'application/json', prefer: 'tx=commit' },
      })
      expect(committed.status).toBe(201)
      expect(committed.headers.get('preference-applied')).toBe('tx=commit')
      expect(await rows('select name from gw_categories where id = 9')).toEqual([{ name: 'kept' }])
      await b.db.query('delete from gw_categories where id = 9')
    })

    it('refuses a PATCH or DELETE past max-affected with handling=strict (PGRST124), and rolls it back', async () => {
      const res = await b.fetch('/rest/v1/gw_reservations?id=gt.0', {
        method: 'DELETE',
        headers: { prefer: 'handling=strict, max-affected=1' },
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        code: 'PGRST124',
        message: 'Query result exceeds max-affected preference constraint',
        details: 'The query affects 2 rows',
        hint: null,
      })
      expect(await rows('select count(*)::int as n from gw_reservations')).toEqual([{ n: 2 }])
      const within = await b.anon().from('gw_reservations').update({ during: '[1,6)' }).eq('id', 1).maxAffected(1)
      expect(within).toMatchObject({ status: 204, error: null })
      expect(await rows('select during::text from gw_reservations where id = 1')).toEqual([{ during: '[1,6)' }])
      await b.db.query("update gw_reservations set during = '[1,5)' where id = 1")
      const lenient = await b.fetch('/rest/v1/gw_reservations?id=gt.0', {
        method: 'DELETE',
        headers: { prefer: 'max-affected=1, tx=rollback' },
      })
      expect(lenient.status).toBe(204)
    })

    it('holds a set-returning rpc to max-affected with handling=strict (PGRST124, PostgREST 13), and rolls it back', async () => {
      await b.db.query(
        'create function gw_drop_reservations() returns setof gw_reservations language sql as $$ delete from gw_reservations where id > 0 returning * $$',
      )
      await b.reloadSchema()
      const call = (prefer: string) =>
        b.fetch('/rest/v1/rpc/gw_drop_reservations', {
          method: 'POST',
          headers: { prefer, 'content-type': 'application/json' },
          body: '{}',
        })
      const refused = await call('handling=strict, max-affected=1')
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({
        code: 'PGRST124',
        message: 'Query result exceeds max-affected preference constraint',
        details: 'The query affects 2 rows',
        hint: null,
      })
      expect(await rows('select count(*)::int as n from gw_reservations')).toEqual([{ n: 2 }])
      const within = await call('handling=strict, max-affected=2, tx=rollback')
      expect(within.status).toBe(200)
      expect(await rows('select count(*)::int as n from gw_reservations')).toEqual([{ n: 2 }])
    })

    it('rejects unknown preferences with handling=strict (PGRST122) and ignores them otherwise', async () => {
      const strict = await get('gw_users?select=id', { prefer: 'handling=strict, foo, count=maybe' })
      expect(strict.status).toBe(400)
      expect(strict.body).toEqual({
        code: 'PGRST122',
        message: 'Invalid preferences given with handling=strict',
        details: 'Invalid preferences: foo, count=maybe',
        hint: null,
      })
      expect((await get('gw_users?select=id', { prefer: 'handling=lenient, foo' })).status).toBe(200)
    })

    it('reads timestamps in the time zone of Prefer: timezone', async () => {
      const res = await get('gw_events?select=at', { prefer: 'timezone=Asia/Tokyo' })
      expect(res.body).toEqual([{ at: '2024-01-01T21:00:00+09:00' }])
      expect(res.headers.get('preference-applied')).toBe('timezone=Asia/Tokyo')
    })
  })

  describe('operators', () => {
    const ids = async (q: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
      const { data, error } = await q
      expect(error).toBeNull()
      return (data ?? []).map((r) => r.id).sort((x, y) => x - y)
    }
    it('filters ranges with sl, sr, nxl, nxr, adj and ov', async () => {
      const t = () => b.anon().from('gw_reservations').select('id')
      expect(await ids(t().rangeLt('during', '[6,9)'))).toEqual([1])
      expect(await ids(t().rangeGt('during', '[6,9)'))).toEqual([2])
      // PostgREST's nxl is &> (does not extend to the left of) and nxr is &< (to the right of).
      expect(await ids(t().rangeGte('during', '[3,9)'))).toEqual([2])
      expect(await ids(t().rangeLte('during', '[3,9)'))).toEqual([1])
      expect(await ids(t().rangeAdjacent('during', '[20,30)'))).toEqual([2])
      expect(await ids(t().overlaps('during', '[4,11)'))).toEqual([1, 2])
      expect(await ids(t().not('during', 'sl', '[6,9)'))).toEqual([2])
    })

    it('quantifies like, ilike and comparisons with (any) and (all)', async () => {
      const t = () => b.anon().from('gw_users').select('id')
      expect(await ids(t().likeAnyOf('username', ['a%', 'b%']))).toEqual([1, 2])
      expect(await ids(t().likeAllOf('username', ['%n%', 'a%']))).toEqual([1])
      expect(await ids(t().ilikeAnyOf('username', ['A*']))).toEqual([1])
      expect(await ids(t().ilikeAllOf('username', ['%N', 'b%']))).toEqual([2])
      expect((await get('gw_users?select=id&id=eq(any).{1,3}&order=id')).body).toEqual([{ id: 1 }, { id: 3 }])
      expect((await get('gw_users?select=id&id=gt(all).{1,2}')).body).toEqual([{ id: 3 }])
      expect((await get('gw_users?select=id&id=not.eq(any).{1,3}')).body).toEqual([{ id: 2 }])
      expect((await get('gw_users?select=id&username=match(any).{^a,^c}&order=id')).body).toEqual([
        { id: 1 },
        { id: 3 },
      ])
      if (engine === 'pglite') {
        // PGlite cannot cancel a statement, so unbounded patterns are refused in lists too.
        const slow = await get(`gw_users?select=id&${new URLSearchParams({ username: 'imatch(all).{^a,(a+)+$}' })}`)
        expect(slow).toMatchObject({ status: 400, body: { code: 'PGRST100' } })
      }
    })

    it('answers 400 PGRST100 for a bad modifier or a quantifier without a list', async () => {
      for (const q of ['username=like(none).{a}', 'username=like(any).abc', 'username=neq(any).{a}']) {
        const res = await get(`gw_users?select=id&${q}`)
        expect(res.status, q).toBe(400)
        expect(res.body.code, q).toBe('PGRST100')
      }
    })
  })

  describe('counts', () => {
    it('counts the rows of an rpc (rows and scalars), with 206 for a partial page', async () => {
      const rowsRpc = await b.anon().rpc('gw_messages_of', { p_user: 1 }, { count: 'exact' })
      expect(rowsRpc).toMatchObject({ count: 3, status: 200 })
      const scalars = await b.anon().rpc('gw_usernames', {}, { count: 'exact' })
      expect(scalars).toMatchObject({ count: 3, data: ['ann', 'ben', 'cy'] })
      const page = await get('rpc/gw_messages_of?p_user=1&limit=1&select=id', { prefer: 'count=exact' })
      expect(page).toMatchObject({ status: 206, body: [{ id: 1 }] })
      expect(page.headers.get('content-range')).toBe('0-0/3')
    })

    it("answers count=planned with the planner's estimate and count=estimated exactly below max_rows", async () => {
      const plan = (await rows('explain (format json) select 1 from gw_messages where user_id = 1'))[0]['QUERY PLAN']
      const estimate = Math.round((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan['Plan Rows'])
      const planned = await get('gw_messages?select=id&user_id=eq.1', { prefer: 'count=planned' })
      expect(planned.headers.get('content-range')).toBe(`0-2/${estimate}`)
      expect(planned.status).toBe(estimate > 3 ? 206 : 200)
      const estimated = await b.anon().from('gw_messages').select('id', { count: 'estimated' }).eq('user_id', 1)
      expect(estimated).toMatchObject({ count: 3, status: 200 })
    })

    it('answers HEAD with count=estimated and count=planned: the count in Content-Range, no body', async () => {
      const estimated = await b
        .anon()
        .from('gw_messages')
        .select('*', { count: 'estimated', head: true })
        .eq('user_id', 1)
      expect(estimated).toMatchObject({ count: 3, data: null, error: null, status: 200 })
      const planned = await b.anon().from('gw_messages').select('*', { count: 'planned', head: true })
      expect(planned).toMatchObject({ data: null, error: null })
      expect(planned.count).toEqual(expect.any(Number))
      const raw = await b.fetch('/rest/v1/gw_messages?select=id&user_id=eq.1', {
        method: 'HEAD',
        headers: { prefer: 'count=estimated' },
      })
      expect(raw.status).toBe(200)
      expect(raw.headers.get('content-range')).toBe('0-2/3')
      expect(await raw.text()).toBe('')
    })

    it('throws PostgREST errors with throwOnError, with their status, code and wording', async () => {
      const thrown = await b
        .anon()
        .from('gw_nope')
        .select()
        .throwOnError()
        .then(
          () => null,
          (error: unknown) => error,
        )
      expect(thrown).toBeInstanceOf(Error)
      expect(thrown).toMatchObject({
        code: 'PGRST205',
        message: "Could not find the table 'public.gw_nope' in the schema cache",
      })
      await expect(b.anon().from('gw_users').select('id').single().throwOnError()).rejects.toMatchObject({
        code: 'PGRST116',
        message: 'Cannot coerce the result to a single JSON object',
        details: 'The result contains 3 rows',
      })
    })
  })

  describe('embedding', () => {
    it('spreads a to-many embed into arrays of its columns (PostgREST 13)', async () => {
      const { data, error } = await b
        .anon()
        .from('gw_users')
        .select('username, ...gw_messages(id, message)')
        .in('id', [1, 3])
        .order('id')
        .order('id', { referencedTable: 'gw_messages' })
      expect(error).toBeNull()
      expect(data).toEqual([
        { username: 'ann', id: [1, 2, 4], message: ['hello', 'hi all', null] },
        { username: 'cy', id: [], message: [] },
      ])
    })

    it('embeds many-to-many through a junction table, both ways and with the junction as hint', async () => {
      const { data } = await b
        .anon()
        .from('gw_products')
        .select('name, gw_categories(name)')
        .order('id')
        .order('id', { referencedTable: 'gw_categories' })
      expect(data).toEqual([
        { name: 'pen', gw_categories: [{ name: 'office' }] },
        { name: 'book', gw_categories: [{ name: 'office' }, { name: 'gifts' }] },
        { name: 'mug', gw_categories: [] },
      ])
      const back = await get(
        'gw_categories?select=name,gw_products!gw_product_categories(name)&order=id&gw_products.order=id',
      )
      expect(back.body).toEqual([
        { name: 'office', gw_products: [{ name: 'pen' }, { name: 'book' }] },
        { name: 'gifts', gw_products: [{ name: 'book' }] },
      ])
      const junction = await get('gw_products?select=name,gw_product_categories(category_id)&id=eq.1')
      expect(junction.body).toEqual([{ name: 'pen', gw_product_categories: [{ category_id: 1 }] }])
    })

    it('embeds through a view in both directions', async () => {
      const fromView = await b
        .anon()
        .from('gw_active_users')
        .select('username, gw_messages(id)')
        .order('id')
        .order('id', { referencedTable: 'gw_messages' })
      expect(fromView.data).toEqual([
        { username: 'ann', gw_messages: [{ id: 1 }, { id: 2 }, { id: 4 }] },
        { username: 'ben', gw_messages: [{ id: 3 }] },
      ])
      const toView = await b.anon().from('gw_messages').select('id, gw_active_users(username)').order('id')
      expect(toView.data?.map((m) => m.gw_active_users)).toEqual([
        { username: 'ann' },
        { username: 'ann' },
        { username: 'ben' },
        { username: 'ann' },
      ])
    })

    it('embeds computed relationships and selects, filters and orders computed fields', async () => {
      const { data } = await b
        .anon()
        .from('gw_employees')
        .select('name, gw_supervisees(name), gw_boss(name)')
        .order('id')
      expect(data).toEqual([
        { name: 'Taylor', gw_supervisees: [{ name: 'Johnson' }, { name: 'Miller' }], gw_boss: null },
        { name: 'Johnson', gw_supervisees: [], gw_boss: { name: 'Taylor' } },
        { name: 'Miller', gw_supervisees: [], gw_boss: { name: 'Taylor' } },
      ])
      const loud = await b.anon().from('gw_users').select('username, loud:gw_shout').eq('gw_shout', 'BEN')
      expect(loud.data).toEqual([{ username: 'ben', loud: 'BEN' }])
      const ordered = await get('gw_users?select=gw_shout&order=gw_shout.desc')
      expect(ordered.body).toEqual([{ gw_shout: 'CY' }, { gw_shout: 'BEN' }, { gw_shout: 'ANN' }])
      const patched = await b
        .anon()
        .from('gw_users')
        .update({ status: 'active' })
        .eq('gw_shout', 'CY')
        .select('username, status')
        .rollback()
      expect(patched.data).toEqual([{ username: 'cy', status: 'active' }])
    })

    it('embeds the children of a self-referencing table by its name and the parent by the key column', async () => {
      const children = await get('gw_employees?select=name,gw_employees(name)&id=eq.1&gw_employees.order=id')
      expect(children.body).toEqual([{ name: 'Taylor', gw_employees: [{ name: 'Johnson' }, { name: 'Miller' }] }])
      const hinted = await get('gw_employees?select=name,reports:gw_employees!supervisor_id(name)&id=eq.2')
      expect(hinted.body).toEqual([{ name: 'Johnson', reports: [] }])
      const parent = await get('gw_employees?select=name,supervisor_id(name)&id=eq.2')
      expect(parent.body).toEqual([{ name: 'Johnson', supervisor_id: { name: 'Taylor' } }])
    })

    it('filters parents on whether an embed is null, and rejects other operators on embeds (PGRST120)', async () => {
      const withMessages = await get('gw_users?select=username,gw_messages()&gw_messages=not.is.null&order=id')
      expect(withMessages.body).toEqual([{ username: 'ann' }, { username: 'ben' }])
      const without = await get('gw_users?select=username,gw_messages(id)&gw_messages=is.null')
      expect(without.body).toEqual([{ username: 'cy', gw_messages: [] }])
      const owners = await get('gw_channels?select=slug,moderator:gw_users!moderator_id(username)&moderator=is.null')
      expect(owners.body).toEqual([{ slug: 'random', moderator: null }])
      const inOr = await get(
        'gw_channels?select=slug,moderator:gw_users!moderator_id(username)&or=(moderator.is.null,slug.eq.general)&order=id',
      )
      expect(inOr.body.map((c: { slug: string }) => c.slug)).toEqual(['general', 'random'])
      const bad = await get('gw_users?select=username,gw_messages(id)&gw_messages=eq.1')
      expect(bad).toMatchObject({
        status: 400,
        body: { code: 'PGRST120', message: "Bad operator on the 'gw_messages' embedded resource" },
      })
    })

    it('orders by a column of a to-one embed, and refuses a to-many one (PGRST118)', async () => {
      const desc = await get('gw_messages?select=id,gw_users(username)&order=gw_users(username).desc,id')
      expect(desc.body.map((m: { id: number }) => m.id)).toEqual([3, 1, 2, 4])
      const numeric = await get('gw_messages?select=id,gw_channels(id)&order=gw_channels(id).desc,id.desc')
      expect(numeric.body.map((m: { id: number }) => m.id)).toEqual([2, 4, 3, 1])
      const toMany = await get('gw_users?select=id,gw_messages(id)&order=gw_messages(id)')
      expect(toMany).toMatchObject({
        status: 400,
        body: { code: 'PGRST118', message: "A related order on 'gw_messages' is not possible" },
      })
      const notEmbedded = await get('gw_messages?select=id&order=gw_users(username)')
      expect(notEmbedded).toMatchObject({ status: 400, body: { code: 'PGRST108' } })
    })

    it('refuses the same embed twice without aliases (42712) and accepts it with aliases', async () => {
      const twice = await get('gw_users?select=id,gw_messages(id),gw_messages(id)')
      expect(twice.status).toBe(400)
      expect(twice.body).toEqual({
        code: '42712',
        message: 'table name "gw_users_gw_messages_1" specified more than once',
        details: null,
        hint: null,
      })
      const aliased = await get('gw_users?select=id,a:gw_messages(id),b:gw_messages(id)&id=eq.2')
      expect(aliased.body).toEqual([{ id: 2, a: [{ id: 3 }], b: [{ id: 3 }] }])
    })

    it('lists the candidate relationships of an ambiguous embed in details (300 PGRST201)', async () => {
      const res = await b.anon().from('gw_channels').select('slug, gw_users(username)')
      expect(res.status).toBe(300)
      expect(res.error?.code).toBe('PGRST201')
      const details = res.error?.details as unknown as {
        cardinality: string
        embedding: string
        relationship: string
      }[]
      // In PostgREST's order: by constraint name.
      expect(details).toEqual([
        {
          cardinality: 'many-to-one',
          embedding: 'gw_channels with gw_users',
          relationship: 'gw_channels_moderator_id_fkey using gw_channels(moderator_id) and gw_users(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'gw_channels with gw_users',
          relationship: 'gw_channels_owner_id_fkey using gw_channels(owner_id) and gw_users(id)',
        },
      ])
      expect(res.error?.hint).toBe(
        "Try changing 'gw_users' to one of the following: 'gw_users!gw_channels_moderator_id_fkey', 'gw_users!gw_channels_owner_id_fkey'. Find the desired relationship in the 'details' key.",
      )
      const none = await get('gw_channels?select=slug,gw_products(name)')
      expect(none.body).toMatchObject({
        code: 'PGRST200',
        details:
          "Searched for a foreign key relationship between 'gw_channels' and 'gw_products' in the schema 'public', but no matches were found.",
      })
    })
  })

  it('answers 201 for an upsert that inserts and 200 for one that only updates', async () => {
    const inserted = await b
      .anon()
      .from('gw_categories')
      .upsert([
        { id: 1, name: 'office' },
        { id: 7, name: 'toys' },
      ])
      .select('id')
    expect(inserted.status).toBe(201)
    const updated = await b
      .anon()
      .from('gw_categories')
      .upsert([{ id: 7, name: 'games' }])
    expect(updated.status).toBe(200)
    const ignored = await b
      .anon()
      .from('gw_categories')
      .upsert([{ id: 7, name: 'x' }], { ignoreDuplicates: true })
    expect(ignored.status).toBe(201)
    expect(await rows('select name from gw_categories where id = 7')).toEqual([{ name: 'games' }])
    await b.db.query('delete from gw_categories where id = 7')
  })

  it('writes CSV as PostgreSQL prints records: quoted where needed, json and arrays in their text form', async () => {
    const { data } = await b.anon().from('gw_messages').select('id, message, data, tags').order('id').csv()
    expect(data).toBe(
      [
        'id,message,data,tags',
        '1,hello,"{""a"": 1, ""b"": [1, 2]}","{x,""y z""}"',
        '2,"hi all",,{}',
        '3,"say ""yo""","""text""",',
        '4,,{},{}',
      ].join('\n'),
    )
  })

  it('serves the schemas of [api] schemas through Accept-Profile and Content-Profile', async () => {
    const things = await b.anon().schema('gw_extra').from('things').select('*')
    expect(things).toMatchObject({ status: 200, data: [{ id: 1, label: 'only in gw_extra' }] })
    const written = await b.anon().schema('gw_extra').from('things').insert({ id: 2, label: 'two' }).select().rollback()
    expect(written).toMatchObject({ status: 201, data: [{ id: 2, label: 'two' }] })
    expect((await b.anon().schema('gw_extra').rpc('thing_count')).data).toBe(1)
    const res = await get('things', { 'accept-profile': 'gw_extra' })
    expect(res.headers.get('content-profile')).toBe('gw_extra')
    const missing = await get('things')
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 'PGRST205', message: "Could not find the table 'public.things' in the schema cache" },
    })
    // PostgREST 13's answer for a schema that is not exposed, on reads (Accept-Profile) and writes (Content-Profile).
    const refused = {
      code: 'PGRST106',
      message: 'Invalid schema: auth',
      details: null,
      hint: 'Only the following schemas are exposed: public, gw_extra',
    }
    expect(await get('gw_users', { 'accept-profile': 'auth' })).toMatchObject({ status: 406, body: refused })
    const write = await b.anon().schema('auth').from('users').insert({ id: 1 })
    expect(write).toMatchObject({ status: 406, error: refused })
    await expect(b.anon().schema('auth').from('users').select('id').throwOnError()).rejects.toMatchObject(refused)
  })

  it('answers the execution plan for application/vnd.pgrst.plan, in JSON and text', async () => {
    const asJson = await b.anon().from('gw_users').select('id').eq('id', 1).explain({ format: 'json' })
    expect(asJson.status).toBe(200)
    expect((asJson.data as unknown as { Plan: { 'Node Type': string } }[])[0].Plan['Node Type']).toEqual(
      expect.any(String),
    )
    const res = await b.fetch('/rest/v1/gw_users?select=id', {
      headers: { accept: 'application/vnd.pgrst.plan+text; for="application/json"' },
    })
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8',
    )
    expect(await res.text()).toMatch(/Scan on gw_users/)
  })

  it('answers 406 PGRST107 for a plan of a type it cannot produce, naming the plan as PostgREST does', async () => {
    const res = await b.fetch('/rest/v1/gw_users?select=id', {
      headers: { accept: 'application/vnd.pgrst.plan+json; for="text/html"; options=verbose|nonsense' },
    })
    expect(res.status).toBe(406)
    expect(await res.json()).toEqual({
      code: 'PGRST107',
      message:
        'None of these media types are available: application/vnd.pgrst.plan+json; for="text/html"; options=verbose',
      details: null,
      hint: null,
    })
    const csv = await b.fetch('/rest/v1/gw_users?select=id', {
      headers: { accept: 'application/vnd.pgrst.plan; for="text/csv"' },
    })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('application/vnd.pgrst.plan+text; for="text/csv"; charset=utf-8')
  })
})
