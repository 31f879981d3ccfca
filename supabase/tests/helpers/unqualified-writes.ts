/**
 * Finds the UPDATE and DELETE statements without a WHERE clause in a function body, with PostgreSQL's own parser
 * (libpg-query: `parse` for SQL, `parsePlPgSQL` for PL/pgSQL). Why: hosted Supabase loads pg-safeupdate for the API
 * roles, and safeupdate refuses such a statement ("UPDATE requires a WHERE clause", SQLSTATE 21000) wherever it runs
 * in that session, inside a function or trigger as much as from PostgREST. The stand-in cannot load safeupdate (no
 * Debian package, no PGlite build), so supabase/tests/safeupdate.test.ts reads every body instead.
 *
 * safeupdate checks the analysed query's top-level WHERE (jointree quals) and that of every data-modifying CTE: a
 * `where true` passes, a join condition in `using`/`from … join … on` does not. Here: any UpdateStmt or DeleteStmt
 * in the parse tree without `whereClause` (DML can only appear at the top or in a WITH, so this is the same set).
 */
import { parse, parsePlPgSQL } from 'libpg-query'

export type Finding = { statement: 'UPDATE' | 'DELETE'; table: string; text: string }

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type RangeVar = { schemaname?: string; relname?: string }
type Dml = { relation?: RangeVar; whereClause?: Json }

/** Every UPDATE/DELETE without WHERE in a parse tree (of statements or of a CREATE FUNCTION with a SQL body). */
function findInTree(tree: Json, text: string, out: Finding[]): void {
  if (Array.isArray(tree)) {
    for (const item of tree) findInTree(item, text, out)
    return
  }
  if (tree === null || typeof tree !== 'object') return
  for (const [key, value] of Object.entries(tree)) {
    if ((key === 'UpdateStmt' || key === 'DeleteStmt') && value && typeof value === 'object') {
      const dml = value as Dml
      if (dml.whereClause === undefined) {
        const r = dml.relation ?? {}
        out.push({
          statement: key === 'UpdateStmt' ? 'UPDATE' : 'DELETE',
          table: [r.schemaname, r.relname].filter(Boolean).join('.'),
          text: text.replace(/\s+/g, ' ').trim().slice(0, 160),
        })
      }
    }
    findInTree(value, text, out)
  }
}

/** Statements of a SQL text, each found with its own text for the report. */
async function findInSql(sql: string, out: Finding[]): Promise<void> {
  const result = (await parse(sql)) as unknown as {
    stmts?: { stmt: Json; stmt_location?: number; stmt_len?: number }[]
  }
  for (const s of result.stmts ?? []) {
    const start = s.stmt_location ?? 0
    const text = s.stmt_len ? sql.slice(start, start + s.stmt_len) : sql.slice(start)
    findInTree(s.stmt, text, out)
  }
}

/**
 * The SQL statements inside a PL/pgSQL function: every PLpgSQL_expr parsed in the default mode (parseMode 0: plain
 * statements, `return query`, `for … in <query>`, cursors). Expressions and assignments (other modes) cannot hold
 * an UPDATE or DELETE. Dynamic SQL (`execute`) is built at run time: it is returned so the caller can refuse it.
 */
function plpgsqlQueries(tree: Json, queries: string[], dynamic: string[]): void {
  if (Array.isArray(tree)) {
    for (const item of tree) plpgsqlQueries(item, queries, dynamic)
    return
  }
  if (tree === null || typeof tree !== 'object') return
  for (const [key, value] of Object.entries(tree)) {
    if (key === 'PLpgSQL_expr' && value && typeof value === 'object' && !Array.isArray(value)) {
      const { query, parseMode } = value as { query?: string; parseMode?: number }
      if (typeof query === 'string' && (parseMode ?? 0) === 0) queries.push(query)
    }
    if (key === 'PLpgSQL_stmt_dynexecute' || key === 'PLpgSQL_stmt_dynfors') {
      const query = (value as { query?: { PLpgSQL_expr?: { query?: string } } }).query?.PLpgSQL_expr?.query
      if (query !== undefined && /\b(update|delete)\b/i.test(query)) dynamic.push(query)
    }
    plpgsqlQueries(value, queries, dynamic)
  }
}

export type FunctionSource = { language: string; source: string; definition: string }

/** UPDATE/DELETE statements without WHERE in one function, and its dynamic SQL that names UPDATE or DELETE. */
export async function unqualifiedWrites(fn: FunctionSource): Promise<{ findings: Finding[]; dynamic: string[] }> {
  const findings: Finding[] = []
  const dynamic: string[] = []
  if (fn.language === 'sql') {
    // A `begin atomic` body has no source text: its statements are in the definition's parse tree.
    await findInSql(fn.source.trim() ? fn.source : fn.definition, findings)
  } else if (fn.language === 'plpgsql') {
    const queries: string[] = []
    plpgsqlQueries((await parsePlPgSQL(fn.definition)) as unknown as Json, queries, dynamic)
    for (const query of queries) await findInSql(query, findings)
  }
  return { findings, dynamic }
}
