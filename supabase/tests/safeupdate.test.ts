// safeupdate parity: hosted Supabase loads pg-safeupdate for the API roles, so an UPDATE or DELETE without a WHERE
// clause fails there ("UPDATE requires a WHERE clause", SQLSTATE 21000), also inside a function or trigger that an API
// request runs. Neither engine of the stand-in can load safeupdate, so every function body in public and private is
// read with PostgreSQL's own parser (libpg-query) and any such statement fails here (helpers/unqualified-writes.ts).
import { describe, expect, it } from 'vitest'
import { testDb } from './helpers/db'
import { unqualifiedWrites } from './helpers/unqualified-writes'

type CatalogFunction = { name: string; language: string; source: string; definition: string }

async function catalogFunctions(): Promise<CatalogFunction[]> {
  const db = await testDb()
  const r = await db.query<CatalogFunction>(
    `select format('%s.%s(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as name,
        l.lanname as language, p.prosrc as source, pg_get_functiondef(p.oid) as definition
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      join pg_language l on l.oid = p.prolang
      where n.nspname in ('public', 'private') and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1`,
  )
  return r.rows
}

const sqlFn = (body: string) => ({ language: 'sql', source: body, definition: '' })
const plpgsqlFn = (body: string) => ({
  language: 'plpgsql',
  source: body,
  definition: `create function f() returns setof integer language plpgsql as $body$${body}$body$`,
})

describe('the checker finds what safeupdate refuses', () => {
  it('flags UPDATE and DELETE without WHERE in SQL, in a data-modifying WITH, and in PL/pgSQL', async () => {
    const flagged = async (fn: Parameters<typeof unqualifiedWrites>[0]) =>
      (await unqualifiedWrites(fn)).findings.map((f) => `${f.statement} ${f.table}`)
    expect(await flagged(sqlFn('update public.t set a = 1'))).toEqual(['UPDATE public.t'])
    expect(await flagged(sqlFn('delete from public.t using public.u join public.v on true'))).toEqual([
      'DELETE public.t',
    ])
    expect(await flagged(sqlFn('with d as (delete from q returning *) select count(*) from d'))).toEqual(['DELETE q'])
    expect(await flagged(plpgsqlFn('begin if true then update private.s set n = 0; end if; end'))).toEqual([
      'UPDATE private.s',
    ])
    expect(
      await flagged(plpgsqlFn('begin return query with x as (update t set a = 2 returning a) select a from x; end')),
    ).toEqual(['UPDATE t'])
  })

  it('accepts a WHERE, `where true` included, and reports dynamic SQL that names UPDATE or DELETE', async () => {
    expect(
      (await unqualifiedWrites(sqlFn('update t set a = 1 where true; delete from t where id = $1'))).findings,
    ).toEqual([])
    const dyn = await unqualifiedWrites(plpgsqlFn(`begin execute format('delete from %I', 'x'); end`))
    expect(dyn).toEqual({ findings: [], dynamic: [`format('delete from %I', 'x')`] })
  })
})

describe('every function body in public and private', () => {
  it('has no UPDATE or DELETE without a WHERE clause, and no dynamic UPDATE or DELETE', async () => {
    const fns = await catalogFunctions()
    expect(fns.length).toBeGreaterThan(100)
    const problems: string[] = []
    for (const fn of fns) {
      const { findings, dynamic } = await unqualifiedWrites(fn)
      for (const f of findings) problems.push(`${fn.name}: ${f.statement} ${f.table} without WHERE: ${f.text}`)
      for (const d of dynamic) problems.push(`${fn.name}: dynamic SQL safeupdate would judge at run time: ${d}`)
    }
    expect(problems).toEqual([])
  })
})
