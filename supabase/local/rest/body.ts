/**
 * Reads a JSON request body for POST/PATCH and the `columns` parameter, with PostgREST's errors for
 * malformed JSON (PGRST102) and for columns the table does not have (PGRST204).
 */
import { RestError } from './errors'
import { splitTopLevel, unquote } from './grammar'
import type { Table } from './schema-cache'

export type JsonObject = Record<string, unknown>

const invalidJson = (details: string | null = null) => new RestError(400, 'PGRST102', 'Empty or invalid json', details)

export function parseJsonBody(body: Buffer, allowEmpty: boolean): unknown {
  const text = body.toString('utf8')
  if (text.trim() === '') {
    if (allowEmpty) return {}
    throw invalidJson()
  }
  try {
    return JSON.parse(text)
  } catch {
    throw invalidJson()
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The rows of an insert and the columns they write: `columns=` when given, else the first row's keys. */
export function insertRows(
  body: unknown,
  columnsParam: string | null,
  table: Table,
): { rows: JsonObject[]; columns: string[] } {
  const rows = Array.isArray(body) ? body : [body]
  if (!rows.every(isObject)) throw invalidJson('Expected a JSON object or an array of JSON objects')
  let columns: string[]
  if (columnsParam !== null) {
    columns = splitTopLevel(columnsParam).map((c) => unquote(c.trim()))
  } else {
    columns = rows.length ? Object.keys(rows[0]) : []
    const sameKeys = (r: JsonObject) => {
      const keys = Object.keys(r)
      return keys.length === columns.length && keys.every((k) => columns.includes(k))
    }
    if (!rows.every(sameKeys)) throw new RestError(400, 'PGRST102', 'All object keys must match')
  }
  checkColumns(columns, table)
  return { rows, columns }
}

export function checkColumns(columns: string[], table: Table) {
  for (const c of columns) {
    if (!table.columns.has(c)) {
      throw new RestError(400, 'PGRST204', `Could not find the '${c}' column of '${table.name}' in the schema cache`)
    }
  }
}

export function patchObject(body: unknown, table: Table): JsonObject {
  if (!isObject(body)) throw invalidJson('Expected a JSON object')
  checkColumns(Object.keys(body), table)
  return body
}
