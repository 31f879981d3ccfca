/**
 * The headers that shape a PostgREST response: `Prefer` (return, count, resolution, missing, handling,
 * tx, timezone, max-affected), the single-object, CSV and execution-plan Accept types, the profile
 * headers that pick one of the exposed schemas, and the `Range` header.
 */
import { RestError } from './errors'
import { bodyKind, negotiate, parseAccept, remember, type PlanFormat, type Produced } from './media'

export type { PlanFormat } from './media'

export type CountKind = 'exact' | 'planned' | 'estimated'

export type Options = {
  returning: 'minimal' | 'representation' | 'headers-only'
  count?: CountKind
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  missingDefault: boolean
  single: boolean
  /**
   * `Accept: application/vnd.pgrst.object+json;nulls=stripped` (or `vnd.pgrst.array+json;nulls=stripped`, what
   * supabase-js's `stripNulls()` sends): keys whose value is null are left out of the JSON, at every depth.
   */
  stripNulls: boolean
  csv: boolean
  range?: { offset: number; limit?: number }
  /** `Prefer: tx=rollback` runs the request and rolls it back, answering as if committed. */
  tx?: 'commit' | 'rollback'
  timezone?: string
  /** `Prefer: max-affected=n`, enforced only with `handling=strict` (PGRST124). */
  maxAffected?: number
  strict: boolean
  /** `Accept: application/vnd.pgrst.plan…`: answer with EXPLAIN instead of running the request. */
  plan?: PlanFormat
  /** The exposed schema the request is about (`Accept-Profile`/`Content-Profile`, else the first one). */
  schema: string
  /** The preferences honoured, for the `Preference-Applied` header. */
  applied: string[]
}

/**
 * What every request of one REST handler runs with (its max rows, whether aggregates are on). It lives here,
 * not in handler.ts, so mutate.ts and rpc.ts can name it without importing the module that imports them
 * (an import cycle, even type-only, is refused by `npm run lint`).
 */
export type RunContext = { maxRows?: number; aggregates: boolean }

export type OptionSettings = { schemas: string[]; planEnabled: boolean }

/** What the request is about: the root (`/`, the OpenAPI description), a table (or view) or a function. */
export type Target = 'root' | 'table' | 'rpc'

const PREFERENCES = new Map<string, RegExp>(
  Object.entries({
    return: /^(minimal|representation|headers-only)$/,
    count: /^(exact|planned|estimated)$/,
    resolution: /^(merge-duplicates|ignore-duplicates)$/,
    missing: /^(default|null)$/,
    handling: /^(strict|lenient)$/,
    tx: /^(commit|rollback)$/,
    timezone: /^[A-Za-z0-9_+\-/]{1,64}$/,
    'max-affected': /^\d{1,15}$/,
    params: /^(single-object|multiple-objects)$/,
  }),
)

export function readOptions(
  headers: Record<string, string>,
  method: string,
  settings: OptionSettings = { schemas: ['public'], planEnabled: false },
  target: Target = 'table',
): Options {
  const prefer = new Map<string, string>()
  const invalid: string[] = []
  for (const token of (headers['prefer'] ?? '').split(/[,;]/)) {
    const t = token.trim()
    if (!t) continue
    const eq = t.indexOf('=')
    const k = (eq < 0 ? t : t.slice(0, eq)).trim()
    const v =
      eq < 0
        ? ''
        : t
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1')
    if (PREFERENCES.get(k)?.test(v) && !prefer.has(k)) prefer.set(k, v)
    else invalid.push(t)
  }
  const read = method === 'GET' || method === 'HEAD'
  const profile = read ? headers['accept-profile'] : headers['content-profile']
  if (profile !== undefined && !settings.schemas.includes(profile)) {
    // PostgREST 13's wording (12 said "The schema must be one of the following: …" with no hint).
    throw new RestError(
      406,
      'PGRST106',
      `Invalid schema: ${profile}`,
      null,
      `Only the following schemas are exposed: ${settings.schemas.join(', ')}`,
    )
  }
  // PostgREST's order: the profile, then the body (a Content-Type it cannot read is refused before anything is
  // looked up), then strict preferences, then the Accept types.
  const writesBody = method === 'POST' ? target !== 'root' : method === 'PATCH' && target === 'table'
  if (writesBody) bodyKind(headers['content-type'], target === 'rpc')
  const strict = prefer.get('handling') === 'strict'
  if (strict && invalid.length) {
    throw new RestError(
      400,
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${invalid.join(', ')}`,
    )
  }
  const produced = produces(headers['accept'], target === 'root' ? 'root' : 'resource', settings.planEnabled)
  const plan = produced.kind === 'plan' ? produced.plan : undefined
  // A plan is of the request as its `for` type would run it (a single object still checks its one row).
  const shape: Produced = produced.kind === 'plan' ? produced.of : produced
  const returning = prefer.get('return') as Options['returning'] | undefined
  const maxAffected = prefer.get('max-affected')
  const applied: string[] = []
  for (const [k, v] of prefer) if (k !== 'timezone' && k !== 'params') applied.push(`${k}=${v}`)
  return {
    returning: returning ?? 'minimal',
    count: prefer.get('count') as CountKind | undefined,
    resolution: prefer.get('resolution') as Options['resolution'],
    missingDefault: prefer.get('missing') === 'default',
    single: shape.kind === 'object',
    stripNulls: (shape.kind === 'json' || shape.kind === 'object') && shape.stripNulls,
    csv: produced.kind === 'csv',
    range: parseRange(headers['range']),
    tx: prefer.get('tx') as Options['tx'],
    timezone: prefer.get('timezone'),
    maxAffected: maxAffected === undefined ? undefined : Number(maxAffected),
    strict,
    plan,
    schema: profile ?? settings.schemas[0],
    applied,
  }
}

/** What the Accept header is answered with; clients send the same few, so the answers are remembered (never a 406). */
const negotiated = new Map<string, Produced>()

function produces(accept: string | undefined, target: 'root' | 'resource', planEnabled: boolean): Produced {
  const key = `${target} ${planEnabled} ${accept === undefined ? '-' : `:${accept}`}`
  const known = negotiated.get(key)
  if (known) return known
  const produced = negotiate(parseAccept(accept), target, planEnabled)
  remember(negotiated, key, produced)
  return produced
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
