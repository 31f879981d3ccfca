/**
 * Reads a request body for POST/PATCH (JSON, CSV or a form, by its Content-Type) and the `columns` parameter,
 * with PostgREST's errors for malformed bodies (PGRST102) and for columns the table does not have (PGRST204).
 */
import { RestError } from './errors'
import { splitTopLevel, unquote } from './grammar'
import type { BodyKind } from './media'
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

/**
 * The body as the JSON it stands for. A form is one object of strings; CSV is an array of objects keyed by the
 * header line, every value a string but `NULL`, which is null (PostgREST's `csvToJson`). A line with fewer fields
 * than the header leaves keys out, which PostgREST refuses; extra fields are dropped, as cassava's zip drops them.
 */
export function parseBody(body: Buffer, kind: BodyKind, allowEmpty: boolean): unknown {
  if (kind === 'form') return Object.fromEntries(new URLSearchParams(body.toString('utf8')))
  if (kind !== 'csv') return parseJsonBody(body, allowEmpty)
  const [header, ...lines] = parseCsv(body.toString('utf8'))
  if (!header) throw new RestError(400, 'PGRST102', 'Empty or invalid csv: a header line naming the columns is needed')
  const rows = lines.map((fields) =>
    Object.fromEntries(fields.slice(0, header.length).map((v, i) => [header[i], v === 'NULL' ? null : v])),
  )
  if (rows.some((r) => Object.keys(r).length !== Object.keys(rows[0]).length)) {
    throw new RestError(400, 'PGRST102', 'All lines must have same number of fields')
  }
  return rows
}

/** RFC 4180 records: comma-separated fields, double-quoted ones may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let fields: string[] = []
  let field = ''
  let i = 0
  const endRecord = () => {
    fields.push(field)
    records.push(fields)
    fields = []
    field = ''
  }
  while (i < text.length) {
    const c = text[i]
    if (c === '"' && field === '') {
      // A quoted field: up to the quote that is not doubled.
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= text.length) throw new RestError(400, 'PGRST102', 'Empty or invalid csv: a quoted field is not closed')
        if (text[j] !== '"') value += text[j++]
        else if (text[j + 1] === '"') {
          value += '"'
          j += 2
        } else break
      }
      field = value
      i = j + 1
    } else if (c === ',') {
      fields.push(field)
      field = ''
      i++
    } else if (c === '\r' || c === '\n') {
      endRecord()
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
    } else {
      field += c
      i++
    }
  }
  if (field !== '' || fields.length) endRecord()
  // Blank lines are no records (cassava leaves them out too).
  return records.filter((r) => r.length > 1 || r[0] !== '')
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
