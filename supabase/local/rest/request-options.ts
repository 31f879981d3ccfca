/**
 * The headers that shape a PostgREST response: `Prefer` (return, count, resolution, missing), the
 * single-object and CSV Accept types, the profile headers, and the `Range` header.
 */
import { RestError } from './errors'
import { EXPOSED_SCHEMA } from './schema-cache'

export type Options = {
  returning: 'minimal' | 'representation' | 'headers-only'
  count: boolean
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missingDefault: boolean
  single: boolean
  csv: boolean
  range?: { offset: number; limit?: number }
}

export function readOptions(headers: Record<string, string>, method: string): Options {
  const prefer = new Map<string, string>()
  for (const token of (headers['prefer'] ?? '').split(/[,;]/)) {
    const [k, v] = token.trim().split('=')
    if (k) prefer.set(k.trim(), (v ?? '').trim())
  }
  const accept = headers['accept'] ?? ''
  const profile = method === 'GET' || method === 'HEAD' ? headers['accept-profile'] : headers['content-profile']
  if (profile !== undefined && profile !== EXPOSED_SCHEMA) {
    throw new RestError(406, 'PGRST106', `The schema must be one of the following: ${EXPOSED_SCHEMA}`)
  }
  const returning = prefer.get('return')
  const resolution = prefer.get('resolution')
  return {
    returning: returning === 'representation' || returning === 'headers-only' ? returning : 'minimal',
    count: ['exact', 'planned', 'estimated'].includes(prefer.get('count') ?? ''),
    resolution: resolution === 'merge-duplicates' || resolution === 'ignore-duplicates' ? resolution : undefined,
    missingDefault: prefer.get('missing') === 'default',
    single: accept.includes('application/vnd.pgrst.object'),
    csv: accept.startsWith('text/csv'),
    range: parseRange(headers['range']),
  }
}

function parseRange(header: string | undefined): Options['range'] {
  const m = header ? /^(?:items=)?\s*(\d{1,15})-(\d{0,15})\s*$/.exec(header) : null
  if (!m) return undefined
  const from = Number(m[1])
  const to = m[2] === '' ? undefined : Number(m[2])
  if (to !== undefined && to < from) return undefined
  return { offset: from, limit: to === undefined ? undefined : to - from + 1 }
}

/** `Content-Range: 0-9/42`, `*\/0` when nothing came back, `/*` when no count was asked for. */
export function contentRange(offset: number, rows: number, total: number | null): string {
  const end = total === null ? '*' : String(total)
  return rows === 0 ? `*/${end}` : `${offset}-${offset + rows - 1}/${end}`
}
