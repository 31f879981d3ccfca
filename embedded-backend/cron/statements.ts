/**
 * Splits a job's command into statements, as libpq's simple query protocol would run them, so the scheduler
 * can run each through the extended protocol (the only one PGlite's `query` speaks) and report the last
 * one's result the way pg_cron does. Semicolons inside quotes, dollar quotes and comments do not split.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = []
  let start = 0
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    if (c === "'" || c === '"') {
      i = endOfQuoted(sql, i, c)
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i)
      i = nl === -1 ? sql.length : nl + 1
    } else if (c === '/' && sql[i + 1] === '*') {
      i = endOfBlockComment(sql, i)
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0]
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length)
        i = close === -1 ? sql.length : close + tag.length
      } else {
        i++
      }
    } else if (c === ';') {
      out.push(sql.slice(start, i))
      i++
      start = i
    } else {
      i++
    }
  }
  out.push(sql.slice(start))
  return out.filter((s) => !isBlank(s))
}

function endOfQuoted(sql: string, i: number, quote: string): number {
  let j = i + 1
  while (j < sql.length) {
    if (sql[j] === quote) {
      if (sql[j + 1] === quote) j += 2
      else return j + 1
    } else {
      j++
    }
  }
  return sql.length
}

function endOfBlockComment(sql: string, i: number): number {
  let depth = 0
  let j = i
  while (j < sql.length) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++
      j += 2
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--
      j += 2
      if (depth === 0) return j
    } else {
      j++
    }
  }
  return sql.length
}

/** True when the text holds only whitespace and comments. */
function isBlank(sql: string): boolean {
  return (
    sql
      .replace(/--[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim() === ''
  )
}

/**
 * pg_cron's return_message for a statement that succeeded: "N row(s)" for statements that return rows,
 * the command tag otherwise (e.g. "UPDATE 3", "INSERT 0 1", "DO").
 */
export function commandTag(statement: string, rowCount: number, returnedRows: boolean): string {
  if (returnedRows) return `${rowCount} ${rowCount === 1 ? 'row' : 'rows'}`
  const verb = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(statement)?.[1]?.toUpperCase() ?? ''
  if (verb === 'INSERT') return `INSERT 0 ${rowCount}`
  if (['UPDATE', 'DELETE', 'MERGE'].includes(verb)) return `${verb} ${rowCount}`
  return verb
}
