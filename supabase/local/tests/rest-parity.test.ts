// PostgREST's answers where supabase-js's own suite found the embedded backend different (issue 26): which of
// several overloaded functions an rpc calls (PostgREST 12.2/13's findProc: by the names of the arguments, an
// unnamed parameter being the key ""), and the messages, codes and statuses when none or many fit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engines, startTestBackend, type TestBackend } from './rest-fixture'

const SQL = `
create table gw_people (id serial primary key, name text not null, nickname text, meta jsonb);
insert into gw_people (name, nickname, meta) values ('Ann', null, '{"a": 1, "b": null}'), ('Ben', 'B', null);
grant select, insert, update on gw_people to anon;
grant usage on all sequences in schema public to anon;

-- The same name and argument names with different types: PostgREST cannot tell them apart.
create function gw_same_names() returns void language sql as '';
create function gw_same_names(a text) returns int language sql as 'select 1';
create function gw_same_names(a int) returns text language sql as $$ select 'int' $$;
-- Different argument names: each call reaches one function.
create function gw_by_names() returns void language sql as '';
create function gw_by_names(a text) returns int language sql as 'select 1';
create function gw_by_names(b int) returns text language sql as $$ select 'b' $$;
create function gw_by_names(cid bigint, search text default 'any') returns text language sql as $$ select search || cid $$;
-- A single unnamed text parameter receives the whole body; an unnamed int one cannot be called at all.
create function gw_unnamed_text(text) returns text language sql as 'select $1';
create function gw_unnamed_int(int) returns int language sql as 'select $1';
create function gw_unnamed_json(json) returns json language sql as 'select $1';
-- No parameters, or one unnamed text parameter with a default: both fit a call without arguments.
create function gw_unnamed_default() returns int language sql as 'select 1';
create function gw_unnamed_default(text default 'd') returns text language sql as 'select $1';
create function gw_unnamed_default(int default 4) returns int language sql as 'select $1';
create function gw_people_like(p text) returns setof gw_people language sql stable as $$
  select * from gw_people where name like p order by id
$$;
grant execute on all functions in schema public to anon;
`

const AMBIGUOUS_HINT =
  'Try renaming the parameters or the function itself in the database so function overloading can be resolved'

describe.each(engines)('PostgREST parity (%s)', (engine) => {
  let b: TestBackend
  beforeAll(async () => {
    b = await startTestBackend(engine, SQL)
  })
  afterAll(async () => {
    await b?.close()
  })
  const post = async (fn: string, body: string, contentType = 'application/json') => {
    const res = await b.fetch(`/rest/v1/rpc/${fn}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    })
    return { status: res.status, body: await res.json().catch(() => null) }
  }

  describe('overloaded functions', () => {
    it('calls the overload whose argument names fit, whatever the values', async () => {
      expect(await b.anon().rpc('gw_by_names')).toMatchObject({ status: 204, data: null, error: null })
      expect(await b.anon().rpc('gw_by_names', { a: 'x' })).toMatchObject({ status: 200, data: 1 })
      expect(await b.anon().rpc('gw_by_names', { b: 7 })).toMatchObject({ status: 200, data: 'b' })
      expect(await b.anon().rpc('gw_by_names', { cid: 3 })).toMatchObject({ status: 200, data: 'any3' })
      expect(await b.anon().rpc('gw_by_names', { cid: 3, search: 'x' }, { get: true })).toMatchObject({ data: 'x3' })
    })

    it('answers 300 PGRST203 naming the candidates, fewest parameters first, when the names fit several', async () => {
      expect(await b.anon().rpc('gw_same_names')).toMatchObject({ status: 204, error: null })
      for (const a of ['text', 1]) {
        const res = await b.anon().rpc('gw_same_names', { a })
        expect(res).toMatchObject({
          status: 300,
          data: null,
          error: {
            code: 'PGRST203',
            message:
              'Could not choose the best candidate function between: public.gw_same_names(a => integer), public.gw_same_names(a => text)',
            details: null,
            hint: AMBIGUOUS_HINT,
          },
        })
      }
      // An unnamed parameter with a default fits a call without arguments as well as no parameters does.
      expect((await b.anon().rpc('gw_unnamed_default')).error).toEqual({
        code: 'PGRST203',
        message:
          'Could not choose the best candidate function between: public.gw_unnamed_default(), public.gw_unnamed_default( => text)',
        details: null,
        hint: AMBIGUOUS_HINT,
      })
    })

    it('passes the whole body to a single unnamed parameter, addressed as the key ""', async () => {
      expect(await b.anon().rpc('gw_unnamed_text', { '': 'x' })).toMatchObject({ status: 200, data: '{"":"x"}' })
      expect(await b.anon().rpc('gw_unnamed_default', { '': true })).toMatchObject({ data: '{"":true}' })
      expect(await post('gw_unnamed_text', 'plain words', 'text/plain')).toEqual({ status: 200, body: 'plain words' })
      // Keys that fit no parameter still reach a single unnamed json parameter, as the whole object.
      expect(await b.anon().rpc('gw_unnamed_json', { x: 1, y: [2] })).toMatchObject({ data: { x: 1, y: [2] } })
    })

    it('answers 404 PGRST202 listing the keys given, with the closest function or parameter names as hint', async () => {
      // gw_unnamed_int(int) cannot be called: an unnamed parameter must be json, jsonb, text, xml or bytea.
      expect((await b.anon().rpc('gw_unnamed_int', { '': 1 })).error).toEqual({
        code: 'PGRST202',
        message: 'Could not find the function public.gw_unnamed_int() in the schema cache',
        details:
          'Searched for the function public.gw_unnamed_int with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: 'Perhaps you meant to call the function public.gw_unnamed_text',
      })
      expect((await b.anon().rpc('gw_nope', { x: 1 })).error).toMatchObject({
        code: 'PGRST202',
        message: 'Could not find the function public.gw_nope(x) in the schema cache',
        hint: 'Perhaps you meant to call the function public.gw_by_names',
      })
      // With overloads of that name, the hint is the closest parameter list.
      const typo = await b.anon().rpc('gw_by_names', { cid: 1, serch: 'x' })
      expect(typo).toMatchObject({
        status: 404,
        error: {
          code: 'PGRST202',
          message: 'Could not find the function public.gw_by_names(cid, serch) in the schema cache',
          details:
            'Searched for the function public.gw_by_names with parameters cid, serch or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
          hint: 'Perhaps you meant to call the function public.gw_by_names(cid, search)',
        },
      })
      // A raw body can only reach a single unnamed parameter of its type, and PostgREST gives no hint then.
      expect(await post('gw_unnamed_int', '<a/>', 'text/xml')).toEqual({
        status: 404,
        body: {
          code: 'PGRST202',
          message: 'Could not find the function public.gw_unnamed_int in the schema cache',
          details:
            'Searched for the function public.gw_unnamed_int with a single unnamed xml parameter, but no matches were found in the schema cache.',
          hint: null,
        },
      })
    })

    it('reads every query parameter that is not a filter as an argument of a GET call', async () => {
      const unknown = await b.fetch('/rest/v1/rpc/gw_by_names?cid=1&x=2')
      expect(unknown.status).toBe(404)
      expect(await unknown.json()).toMatchObject({
        code: 'PGRST202',
        message: 'Could not find the function public.gw_by_names(cid, x) in the schema cache',
      })
      // A value that parses as an operator is a filter on the result, not an argument.
      const filtered = await b.fetch('/rest/v1/rpc/gw_people_like?p=%25n&id=gt.1&select=name')
      expect(await filtered.json()).toEqual([{ name: 'Ben' }])
    })
  })

  describe('nulls=stripped', () => {
    const ARRAY = 'application/vnd.pgrst.array+json;nulls=stripped'
    const OBJECT = 'application/vnd.pgrst.object+json;nulls=stripped'
    const get = async (path: string, accept: string, init: RequestInit = {}) => {
      const res = await b.fetch(`/rest/v1/${path}`, { ...init, headers: { accept, ...(init.headers ?? {}) } })
      return { status: res.status, type: res.headers.get('content-type'), body: await res.json() }
    }

    it('leaves out keys whose value is null, nested ones too, for the array and the object types', async () => {
      expect(await get('gw_people?order=id', ARRAY)).toEqual({
        status: 200,
        type: 'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8',
        body: [
          { id: 1, name: 'Ann', meta: { a: 1 } },
          { id: 2, name: 'Ben', nickname: 'B' },
        ],
      })
      expect(await get('gw_people?id=eq.1&select=id,nickname', OBJECT)).toEqual({
        status: 200,
        type: 'application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8',
        body: { id: 1 },
      })
      // Through supabase-js, as `stripNulls()` asks for it.
      const { data, error } = await b.anon().from('gw_people').select('id, nickname').order('id').stripNulls()
      expect(error).toBeNull()
      expect(data).toEqual([{ id: 1 }, { id: 2, nickname: 'B' }])
      const one = await b.anon().from('gw_people').select().eq('id', 1).single().stripNulls()
      expect(one).toMatchObject({ status: 200, data: { id: 1, name: 'Ann', meta: { a: 1 } } })
    })

    it('strips the rows a write returns and the rows of an rpc', async () => {
      const patched = await get('gw_people?id=eq.2', ARRAY, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', prefer: 'return=representation, tx=rollback' },
        body: JSON.stringify({ nickname: null }),
      })
      expect(patched).toEqual({
        status: 200,
        type: 'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8',
        body: [{ id: 2, name: 'Ben' }],
      })
      expect((await get('rpc/gw_people_like?p=Ann', ARRAY)).body).toEqual([{ id: 1, name: 'Ann', meta: { a: 1 } }])
    })

    it('answers 406 PGRST116 for the object type when the result is not one row, and plain JSON without the parameter', async () => {
      expect(await get('gw_people', OBJECT)).toEqual({
        status: 406,
        type: 'application/json; charset=utf-8',
        body: {
          code: 'PGRST116',
          message: 'Cannot coerce the result to a single JSON object',
          details: 'The result contains 2 rows',
          hint: null,
        },
      })
      const plain = await get('gw_people?order=id&select=id,nickname', 'application/vnd.pgrst.array+json')
      expect(plain).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        body: [
          { id: 1, nickname: null },
          { id: 2, nickname: 'B' },
        ],
      })
    })
  })
})
