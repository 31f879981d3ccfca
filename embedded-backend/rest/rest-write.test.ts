// Writes through /rest/v1 with the real supabase-js client: insert (one, many, `columns`), upsert with
// both resolutions and on_conflict, update and delete with and without representation, and row-level
// security enforced by Postgres for anon and signed-in users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from '../testing/rest-fixture'
import { REST_TEST_SQL } from '../testing/rest-schema'

const USER_A = '00000000-0000-4000-8000-00000000000a'
const USER_B = '00000000-0000-4000-8000-00000000000b'

describe.each(engines)('REST writes (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, REST_TEST_SQL)
  })
  afterAll(async () => {
    await b?.close()
  })
  const items = async (where = "sku like 'w-%'") =>
    (await b.db.query(`select sku, qty, label from gw_items where ${where} order by sku`)).rows

  it('inserts one row and returns it with select() (201 array)', async () => {
    const { data, status, error } = await b.anon().from('gw_items').insert({ sku: 'w-1', qty: 2 }).select()
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toEqual([{ id: expect.any(Number), sku: 'w-1', qty: 2, label: null }])
  })

  it('inserts many rows with the columns parameter and returns nothing by default (201)', async () => {
    const { data, status, error } = await b
      .anon()
      .from('gw_items')
      .insert([
        { sku: 'w-2', qty: 1 },
        { sku: 'w-3', qty: 4, label: 'three' },
      ])
    expect(error).toBeNull()
    expect(status).toBe(201)
    expect(data).toBeNull()
    expect(await items("sku in ('w-2', 'w-3')")).toEqual([
      { sku: 'w-2', qty: 1, label: null },
      { sku: 'w-3', qty: 4, label: 'three' },
    ])
  })

  it('sends a key missing from some rows as null, as PostgREST does without missing=default', async () => {
    const { error } = await b
      .anon()
      .from('gw_items')
      .insert([{ sku: 'w-n1', qty: 1 }, { sku: 'w-n2' }])
    expect(error?.code).toBe('23502')
    expect(await items("sku like 'w-n%'")).toEqual([])
  })

  it('returns the inserted row with embeds as one object for .single()', async () => {
    const { data } = await b
      .anon()
      .from('gw_reviews')
      .insert({ book_id: 2, stars: 2 })
      .select('stars, book:gw_books(title)')
      .single()
    expect(data).toEqual({ stars: 2, book: { title: 'Beta' } })
  })

  it('upserts with merge-duplicates on a unique column and with ignore-duplicates', async () => {
    await b.anon().from('gw_items').insert({ sku: 'w-up', qty: 1, label: 'old' })
    const merged = await b
      .anon()
      .from('gw_items')
      .upsert({ sku: 'w-up', qty: 5, label: 'new' }, { onConflict: 'sku' })
      .select('sku, qty, label')
    // Only an existing row changed: PostgREST answers 200 (201 is for upserts that insert).
    expect(merged.status).toBe(200)
    expect(merged.data).toEqual([{ sku: 'w-up', qty: 5, label: 'new' }])
    const ignored = await b
      .anon()
      .from('gw_items')
      .upsert({ sku: 'w-up', qty: 9 }, { onConflict: 'sku', ignoreDuplicates: true })
      .select('sku')
    expect(ignored.data).toEqual([])
    expect(await items("sku = 'w-up'")).toEqual([{ sku: 'w-up', qty: 5, label: 'new' }])
  })

  it('upserts on the primary key when no on_conflict is given', async () => {
    const { data } = await b.anon().from('gw_items').insert({ sku: 'w-pk' }).select('id').single()
    const { error } = await b.anon().from('gw_items').upsert({ id: data!.id, sku: 'w-pk', qty: 7 })
    expect(error).toBeNull()
    expect(await items("sku = 'w-pk'")).toEqual([{ sku: 'w-pk', qty: 7, label: null }])
  })

  it('fills missing keys with column defaults when asked (missing=default)', async () => {
    const { error } = await b
      .anon()
      .from('gw_items')
      .insert([{ sku: 'w-d1', qty: 3 }, { sku: 'w-d2' }], { defaultToNull: false })
    expect(error).toBeNull()
    expect(await items("sku like 'w-d%'")).toEqual([
      { sku: 'w-d1', qty: 3, label: null },
      { sku: 'w-d2', qty: 0, label: null },
    ])
  })

  it('updates with filters: 204 without select, 200 rows with select', async () => {
    await b.anon().from('gw_items').insert({ sku: 'w-u', qty: 1 })
    const plain = await b.anon().from('gw_items').update({ qty: 10 }).eq('sku', 'w-u')
    expect(plain.status).toBe(204)
    const shown = await b.anon().from('gw_items').update({ label: 'seen' }).eq('sku', 'w-u').select('sku, qty, label')
    expect(shown.status).toBe(200)
    expect(shown.data).toEqual([{ sku: 'w-u', qty: 10, label: 'seen' }])
  })

  it('deletes with filters and reports the count', async () => {
    await b
      .anon()
      .from('gw_items')
      .insert([{ sku: 'w-x1' }, { sku: 'w-x2' }])
    const { status, count } = await b.anon().from('gw_items').delete({ count: 'exact' }).like('sku', 'w-x%')
    expect(status).toBe(204)
    expect(count).toBe(2)
    expect(await items("sku like 'w-x%'")).toEqual([])
  })

  it('refuses update and delete without a filter, as hosted Supabase does', async () => {
    const { error, status } = await b.anon().from('gw_items').delete()
    expect(status).toBe(400)
    expect(error?.code).toBe('21000')
    expect((await b.db.query('select count(*)::int as n from gw_items')).rows[0]).not.toEqual({ n: 0 })
  })

  describe('safeupdate, as hosted Supabase loads it for the API roles', () => {
    const send = (method: string, path: string, body?: unknown) =>
      b.fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })

    it("answers a PATCH or DELETE without a filter with PostgREST's 400 and PostgreSQL's 21000 error as it is", async () => {
      await b.anon().from('gw_items').insert({ sku: 'w-guard', qty: 3 })
      const patch = await send('PATCH', '/rest/v1/gw_items', { qty: 0 })
      expect(patch.status).toBe(400)
      expect(await patch.json()).toEqual({
        code: '21000',
        details: null,
        hint: null,
        message: 'UPDATE requires a WHERE clause',
      })
      // A filter on an embedded resource only is no WHERE on the table: PostgREST sends the UPDATE without one.
      const del = await send('DELETE', '/rest/v1/gw_items?select=sku')
      expect(del.status).toBe(400)
      expect(await del.json()).toEqual({
        code: '21000',
        details: null,
        hint: null,
        message: 'DELETE requires a WHERE clause',
      })
      expect(await items("sku = 'w-guard'")).toEqual([{ sku: 'w-guard', qty: 3, label: null }])
    })

    it('runs no UPDATE for an empty patch, so no filter is needed (204, as PostgREST selects `where false`)', async () => {
      expect((await send('PATCH', '/rest/v1/gw_items', {})).status).toBe(204)
    })

    it('maps 21000 from the database as PostgREST does: 400 for safeupdate, 500 for any other', async () => {
      const raise = (message: string) => send('POST', '/rest/v1/rpc/gw_raise', { p_code: '21000', p_message: message })
      const refused = await raise('DELETE requires a WHERE clause')
      expect(refused.status).toBe(400)
      expect((await refused.json()).message).toBe('DELETE requires a WHERE clause')
      const server = await raise('more than one row returned by a subquery used as an expression')
      expect(server.status).toBe(500)
      expect((await server.json()).code).toBe('21000')
    })
  })

  it('rolls back a write whose single() result is not exactly one row', async () => {
    await b
      .anon()
      .from('gw_items')
      .insert([{ sku: 'w-s1' }, { sku: 'w-s2' }])
    const { status } = await b.anon().from('gw_items').update({ qty: 99 }).like('sku', 'w-s%').select().single()
    expect(status).toBe(406)
    expect((await items("sku like 'w-s%'")).map((r) => r.qty)).toEqual([0, 0])
  })

  describe('row-level security', () => {
    it('lets anon read only published rows', async () => {
      const { data } = await b.anon().from('gw_notes').select('body')
      expect(data).toEqual([{ body: 'public note of A' }])
    })

    it('lets a signed-in user read their own rows and published ones', async () => {
      const { data } = await (await b.user(USER_A)).from('gw_notes').select('body').order('id')
      expect(data).toEqual([{ body: 'public note of A' }, { body: 'private note of A' }])
      const other = await (await b.user(USER_B)).from('gw_notes').select('body').order('id')
      expect(other.data).toEqual([{ body: 'public note of A' }, { body: 'private note of B' }])
    })

    it('lets a user insert a row they own (auth.uid() default) and refuses one for someone else (403)', async () => {
      const a = await b.user(USER_A)
      const own = await a.from('gw_notes').insert({ body: 'new note of A' }).select('owner_id, body').single()
      expect(own.data).toEqual({ owner_id: USER_A, body: 'new note of A' })
      const forged = await a.from('gw_notes').insert({ owner_id: USER_B, body: 'sneaky' })
      expect(forged.status).toBe(403)
      expect(forged.error?.code).toBe('42501')
    })

    it('refuses anon inserts with 401', async () => {
      const { status, error } = await b.anon().from('gw_notes').insert({ owner_id: USER_A, body: 'anon' })
      expect(status).toBe(401)
      expect(error?.code).toBe('42501')
    })

    it('updates only rows the policy lets the user see', async () => {
      const { data } = await (
        await b.user(USER_B)
      )
        .from('gw_notes')
        .update({ body: 'hijacked' })
        .eq('body', 'private note of A')
        .select()
      expect(data).toEqual([])
      expect(
        (await b.db.query("select count(*)::int as n from gw_notes where body = 'private note of A'")).rows[0],
      ).toEqual({ n: 1 })
    })

    it('lets the service role bypass the policies', async () => {
      const { count } = await b.service().from('gw_notes').select('*', { count: 'exact', head: true })
      expect(count).toBe(4)
    })
  })
})
