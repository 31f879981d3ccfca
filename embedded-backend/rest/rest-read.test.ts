// Reads through /rest/v1 with the real supabase-js client: the select grammar, filters, embeds, order,
// ranges, counts and the single-object Accept type, as the contract table in ARCHITECTURE.md lists them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'
import { REST_TEST_SQL } from '../testing/rest-schema'
import { platformOf } from '../db/platform'

describe.each(engines)('REST reads (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, REST_TEST_SQL)
  })
  afterAll(async () => {
    await b?.close()
  })

  it('selects columns with in() and order, as the select/in/order row sends', async () => {
    const { data, error, status } = await b
      .anon()
      .from('gw_books')
      .select('id,title')
      .in('status', ['published', 'draft'])
      .order('title', { ascending: false })
    expect(error).toBeNull()
    expect(status).toBe(200)
    expect(data).toEqual([
      { id: 3, title: 'Gamma' },
      { id: 2, title: 'Beta' },
      { id: 1, title: 'Alpha' },
    ])
  })

  it('renames with aliases and casts with ::', async () => {
    const { data } = await b.anon().from('gw_books').select('name:title, pages::text, price').eq('id', 1).single()
    expect(data).toEqual({ name: 'Alpha', pages: '100', price: 9.99 })
  })

  it('reads JSON paths with -> and ->> and filters on them', async () => {
    const { data } = await b
      .anon()
      .from('gw_authors')
      .select('name, country:meta->>country, age:meta->age')
      .eq('meta->>country', 'FR')
    expect(data).toEqual([{ name: 'Ben', country: 'FR', age: 35 }])
  })

  it('embeds a many-to-one relationship named by its foreign key as an object', async () => {
    const { data } = await b
      .anon()
      .from('gw_books')
      .select('title, gw_authors!gw_books_author_id_fkey(name)')
      .eq('id', 3)
      .single()
    expect(data).toEqual({ title: 'Gamma', gw_authors: { name: 'Ben' } })
  })

  it('embeds with an alias and a column hint; a missing parent is null', async () => {
    const { data } = await b.anon().from('gw_books').select('title, editor:gw_authors!editor_id(name)').order('id')
    expect(data).toEqual([
      { title: 'Alpha', editor: { name: 'Ben' } },
      { title: 'Beta', editor: null },
      { title: 'Gamma', editor: { name: 'Ann' } },
      { title: 'Delta', editor: null },
    ])
  })

  it('spreads a to-one embed into its parent with ...', async () => {
    const { data } = await b
      .anon()
      .from('gw_books')
      .select('title, ...gw_authors!author_id(author_name:name)')
      .eq('id', 3)
      .single()
    expect(data).toEqual({ title: 'Gamma', author_name: 'Ben' })
  })

  it('asks for a hint when two foreign keys join the same tables (300 PGRST201)', async () => {
    const { error, status } = await b.anon().from('gw_books').select('title, gw_authors(name)')
    expect(status).toBe(300)
    expect(error?.code).toBe('PGRST201')
  })

  it('embeds one-to-many as arrays, ordered and limited per parent', async () => {
    const { data } = await b
      .anon()
      .from('gw_books')
      .select('title, gw_reviews(stars)')
      .order('id')
      .order('stars', { referencedTable: 'gw_reviews', ascending: true })
      .limit(2)
    expect(data).toEqual([
      { title: 'Alpha', gw_reviews: [{ stars: 4 }, { stars: 5 }] },
      { title: 'Beta', gw_reviews: [] },
    ])
  })

  it('nests embeds two levels deep', async () => {
    const { data } = await b
      .anon()
      .from('gw_reviews')
      .select('stars, book:gw_books(title, author:gw_authors!author_id(name))')
      .eq('id', 3)
      .single()
    expect(data).toEqual({ stars: 3, book: { title: 'Gamma', author: { name: 'Ben' } } })
  })

  it('filters embedded rows without !inner and filters parents with !inner', async () => {
    const plain = await b
      .anon()
      .from('gw_books')
      .select('id, author:gw_authors!author_id(name)')
      .eq('author.name', 'Ann')
      .order('id')
    expect(plain.data).toEqual([
      { id: 1, author: { name: 'Ann' } },
      { id: 2, author: { name: 'Ann' } },
      { id: 3, author: null },
      { id: 4, author: null },
    ])
    const inner = await b
      .anon()
      .from('gw_books')
      .select('id, advertiser:gw_authors!author_id!inner(name)')
      .eq('advertiser.name', 'Ann')
      .order('id')
    expect(inner.data).toEqual([
      { id: 1, advertiser: { name: 'Ann' } },
      { id: 2, advertiser: { name: 'Ann' } },
    ])
  })

  it('keeps only parents with children for a one-to-many !inner embed', async () => {
    const { data } = await b.anon().from('gw_books').select('id, gw_reviews!inner(id)').gte('gw_reviews.stars', 5)
    expect(data).toEqual([{ id: 1, gw_reviews: [{ id: 1 }] }])
  })

  it('applies every comparison operator', async () => {
    const ids = async (q: PromiseLike<{ data: { id: number }[] | null }>) =>
      ((await q).data ?? []).map((r) => r.id).sort()
    const t = () => b.anon().from('gw_books').select('id')
    expect(await ids(t().eq('pages', 100))).toEqual([1])
    expect(await ids(t().neq('status', 'published'))).toEqual([2, 4])
    expect(await ids(t().gt('pages', 50))).toEqual([1, 2])
    expect(await ids(t().gte('pages', 50))).toEqual([1, 2, 4])
    expect(await ids(t().lt('price', 5))).toEqual([4])
    expect(await ids(t().lte('price', 5))).toEqual([3, 4])
    expect(await ids(t().like('title', '%ta'))).toEqual([2, 4])
    expect(await ids(t().ilike('title', 'a*'))).toEqual([1])
    expect(await ids(t().is('pages', null))).toEqual([3])
    expect(await ids(t().not('pages', 'is', null))).toEqual([1, 2, 4])
    expect(await ids(t().contains('tags', ['y']))).toEqual([1, 2])
    expect(await ids(t().containedBy('tags', ['x', 'y']))).toEqual([1, 2, 4])
    expect(await ids(t().not('status', 'in', '(published,archived)'))).toEqual([2])
    expect(await ids(t().in('title', ['Alpha', 'Has, comma', 'Delta']))).toEqual([1, 4])
  })

  it('combines or() and nested and() trees', async () => {
    const { data } = await b
      .anon()
      .from('gw_books')
      .select('id')
      .or('status.eq.draft,and(pages.gte.50,pages.lt.100),title.eq."Gamma"')
      .order('id')
    expect(data).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }])
  })

  it('negates logic trees with not.or and filters with is.not_null-style negation', async () => {
    const res = await b.fetch('/rest/v1/gw_books?select=id&not.or=(status.eq.draft,pages.is.null)&order=id')
    expect(await res.json()).toEqual([{ id: 1 }, { id: 4 }])
  })

  it('orders by several columns with nullsfirst/nullslast', async () => {
    const last = await b.anon().from('gw_books').select('id').order('pages', { ascending: true, nullsFirst: false })
    expect(last.data?.map((r) => r.id)).toEqual([4, 1, 2, 3])
    const first = await b
      .anon()
      .from('gw_books')
      .select('id')
      .order('author_id', { ascending: false })
      .order('pages', { nullsFirst: true })
    expect(first.data?.map((r) => r.id)).toEqual([3, 4, 1, 2])
  })

  it('pages with range() (offset/limit) and reports Content-Range', async () => {
    const { data, count } = await b.anon().from('gw_books').select('id', { count: 'exact' }).order('id').range(1, 2)
    expect(data).toEqual([{ id: 2 }, { id: 3 }])
    expect(count).toBe(4)
    const res = await b.fetch('/rest/v1/gw_books?select=id&order=id&offset=1&limit=2', {
      headers: { prefer: 'count=exact' },
    })
    expect(res.headers.get('content-range')).toBe('1-2/4')
  })

  it('counts with HEAD and Prefer: count=exact, including */0 for no rows', async () => {
    const all = await b.anon().from('gw_books').select('*', { count: 'exact', head: true })
    expect(all).toMatchObject({ count: 4, data: null, error: null })
    const none = await b.fetch('/rest/v1/gw_books?select=*&id=eq.999', {
      method: 'HEAD',
      headers: { prefer: 'count=exact' },
    })
    expect(none.status).toBe(200)
    expect(none.headers.get('content-range')).toBe('*/0')
  })

  it('answers maybeSingle with null for no rows and single() with 406 PGRST116 for 0 or many', async () => {
    expect((await b.anon().from('gw_books').select('id').eq('id', 999).maybeSingle()).data).toBeNull()
    const none = await b.anon().from('gw_books').select('id').eq('id', 999).single()
    expect(none.status).toBe(406)
    expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' })
    const many = await b.anon().from('gw_books').select('id').single()
    expect(many.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 4 rows' })
  })

  it('refuses aggregate functions unless db_aggregates_enabled (400 PGRST123), but keeps the legacy count', async () => {
    for (const select of ['pages.sum()', 'count()', 'title,gw_reviews(stars.max())']) {
      const res = await b.fetch(`/rest/v1/gw_books?select=${select}`)
      expect(res.status, select).toBe(400)
      expect(await res.json(), select).toEqual({
        code: 'PGRST123',
        message: 'Use of aggregate functions is not allowed',
        details: null,
        hint: null,
      })
    }
    const { data } = await b.anon().from('gw_books').select('title, gw_reviews(count)').order('id').limit(2)
    expect(data).toEqual([
      { title: 'Alpha', gw_reviews: [{ count: 2 }] },
      { title: 'Beta', gw_reviews: [{ count: 0 }] },
    ])
  })

  it('refuses execution plans unless db_plan_enabled (406 PGRST107)', async () => {
    const res = await b.fetch('/rest/v1/gw_books?select=id', { headers: { accept: 'application/vnd.pgrst.plan+json' } })
    expect(res.status).toBe(406)
    expect(await res.json()).toEqual({
      code: 'PGRST107',
      message: 'None of these media types are available: application/vnd.pgrst.plan+json; for="application/json"',
      details: null,
      hint: null,
    })
  })

  it("turns aggregates and plans on from the authenticator role's pgrst settings, reloaded by notify pgrst", async () => {
    // As on hosted: `alter role authenticator set pgrst.… ; notify pgrst, 'reload config'` (here per database, as
    // the test's database is its own and roles are the cluster's).
    // Role settings of pgrst.* take a superuser here (hosted lets postgres through supautils): the platform's role.
    const setting = async (value: string | null) =>
      (await platformOf(b.db)).as('supabase_admin', (db) =>
        db.exec(`do $$ begin
        execute format('alter role authenticator in database %I ${value === null ? 'reset pgrst.db_aggregates_enabled' : "set pgrst.db_aggregates_enabled = ''" + value + "''"}', current_database());
        execute format('alter role authenticator in database %I ${value === null ? 'reset pgrst.db_plan_enabled' : "set pgrst.db_plan_enabled = ''" + value + "''"}', current_database());
      end $$; notify pgrst, 'reload config'`),
      )
    const sum = () => b.fetch('/rest/v1/gw_books?select=pages.sum()')
    const plan = () =>
      b.fetch('/rest/v1/gw_books?select=id', { headers: { accept: 'application/vnd.pgrst.plan+json' } })
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25))
    }
    try {
      await setting('true')
      await until(async () => (await sum()).status === 200)
      expect(await (await sum()).json()).toEqual([{ sum: 350 }])
      const explained = await plan()
      expect(explained.status).toBe(200)
      expect(explained.headers.get('content-type')).toBe(
        'application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8',
      )
      // PostgREST reads the text as a boolean in any case, or a number above zero; anything else is off.
      await setting('yes')
      await until(async () => (await sum()).status === 400)
      expect(await (await sum()).json()).toMatchObject({ code: 'PGRST123' })
      expect((await plan()).status).toBe(406)
    } finally {
      await setting(null)
      await b.reloadSchema()
    }
    expect((await sum()).status).toBe(400)
  })

  it.runIf(engine === 'postgres')(
    'still hears notify pgrst after its listening connection was ended (db/listener.ts)',
    async () => {
      const listenerPids = async () =>
        (
          await b.db.query<{ pid: number }>(
            `select pid from pg_stat_activity where query = 'listen "pgrst"' and datname = current_database()`,
          )
        ).rows.map((row) => row.pid)
      const [first] = await listenerPids()
      expect(first).toBeDefined()
      const aggregates = (value: 'true' | null) =>
        platformOf(b.db).then((platform) =>
          platform.as('supabase_admin', (db) =>
            db.exec(
              `do $$ begin execute format('alter role authenticator in database %I ${
                value === null ? 'reset pgrst.db_aggregates_enabled' : "set pgrst.db_aggregates_enabled = ''true''"
              }', current_database()); end $$; notify pgrst, 'reload config'`,
            ),
          ),
        )
      const until = async (check: () => Promise<boolean>) => {
        for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25))
      }
      const sum = () => b.fetch('/rest/v1/gw_books?select=pages.sum()')
      await b.db.query('select pg_terminate_backend($1)', [first])
      // A failover or an idle kill ends the connection: the REST layer listens again on a new one.
      await until(async () => (await listenerPids()).some((pid) => pid !== first))
      expect((await listenerPids()).filter((pid) => pid !== first)).toHaveLength(1)
      try {
        await aggregates('true')
        await until(async () => (await sum()).status === 200)
        expect(await (await sum()).json()).toEqual([{ sum: 350 }])
      } finally {
        await aggregates(null)
        await b.reloadSchema()
      }
    },
  )

  it('answers reads of one shape with their own values (plans cached by shape), and each operator as its own', async () => {
    const title = async (q: string) => (await (await b.fetch(`/rest/v1/gw_books?select=title&${q}`)).json()) as unknown
    // The same shape three times with different values, and shapes that differ only in the operator.
    expect(await title('id=eq.1')).toEqual([{ title: 'Alpha' }])
    expect(await title('id=eq.2')).toEqual([{ title: 'Beta' }])
    expect(await title('id=eq.1')).toEqual([{ title: 'Alpha' }])
    expect(await title('id=gt.2&order=id')).toEqual([{ title: 'Gamma' }, { title: 'Delta' }])
    expect(await title('id=not.gt.2&order=id')).toEqual([{ title: 'Alpha' }, { title: 'Beta' }])
    expect(await title('id=lt.2&order=id')).toEqual([{ title: 'Alpha' }])
    // Operators whose values the planner rewrites or splices keep their values in the shape.
    expect(await title('title=like.A*')).toEqual([{ title: 'Alpha' }])
    expect(await title('title=like.B*')).toEqual([{ title: 'Beta' }])
    expect(await title('id=in.(1,2)&order=id')).toEqual([{ title: 'Alpha' }, { title: 'Beta' }])
    expect(await title('id=in.(3)')).toEqual([{ title: 'Gamma' }])
    // A value holding the cache's own separators is planned afresh, never read as another shape.
    expect(await title('id=eq.1&title=neq.%01gw0%01')).toEqual([{ title: 'Alpha' }])
    expect(await title('id=eq.2&title=neq.x')).toEqual([{ title: 'Beta' }])
    // A bad value for the column still fails in Postgres, with its own words, on a cached shape too.
    expect(await (await b.fetch('/rest/v1/gw_books?select=title&id=eq.x')).json()).toMatchObject({
      code: '22P02',
      message: 'invalid input syntax for type integer: "x"',
    })
  })

  it('answers text/csv when asked', async () => {
    const { data } = await b.anon().from('gw_authors').select('id,name').order('id').limit(2).csv()
    expect(data).toBe('id,name\n1,Ann\n2,Ben')
  })
})
