/**
 * Media types as PostgREST 12.2/13 reads them: the `Accept` list (wai-extra's `parseHttpAccept`: spaces dropped,
 * sorted by q-value then specificity, nothing dropped, not even q=0), each entry decoded to one of PostgREST's
 * known types (`decodeMediaType`), and the first entry this backend can produce chosen (`negotiateContent`); none
 * is 406 PGRST107 naming every entry. The `Content-Type` of a body decides how it is read (`getPayload`): none is
 * JSON, and a type PostgREST does not read there is 400 PGRST102 "Content-Type not acceptable: …".
 */
import { RestError } from './errors'

export type PlanFormat = { format: 'json' | 'text'; for: MediaType; options: string[] }

export type MediaType =
  | { kind: 'json' }
  | { kind: 'geojson' }
  | { kind: 'csv' }
  | { kind: 'text' }
  | { kind: 'xml' }
  | { kind: 'openapi' }
  | { kind: 'form' }
  | { kind: 'octet' }
  | { kind: 'any' }
  /** `application/vnd.pgrst.array+json;nulls=stripped` (without the parameter it is plain JSON). */
  | { kind: 'array-stripped' }
  | { kind: 'object'; stripNulls: boolean }
  | { kind: 'plan'; plan: PlanFormat }
  | { kind: 'other'; text: string }

const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal']

/** PostgREST's `tokenizeMediaType`: `type/subtype` then `; key=value` pairs (quoted or not); else no match. */
function tokenize(text: string): { main: string; sub: string; params: Map<string, string> } | null {
  const head = /^([A-Za-z0-9.*]+)\/([A-Za-z0-9.*+-]+)/.exec(text)
  if (!head) return null
  const params = new Map<string, string>()
  const pair = /^\s*;\s*([A-Za-z0-9-]+)\s*=\s*(?:"([^"]*)"|([A-Za-z0-9|-]+))/
  let rest = text.slice(head[0].length)
  for (let m = pair.exec(rest); m; m = pair.exec(rest)) {
    params.set(m[1].toLowerCase(), m[2] ?? m[3]) // a repeated name: the last one counts (Data.Map.fromList)
    rest = rest.slice(m[0].length)
  }
  return { main: head[1], sub: head[2], params }
}

/** The plan media type's parameters: what it is `for` and its EXPLAIN options. */
function planType(format: PlanFormat['format'], params: Map<string, string>): MediaType {
  const options = (params.get('options') ?? '').split('|')
  return {
    kind: 'plan',
    plan: {
      format,
      for: decodeMediaType(params.get('for') ?? 'application/json'),
      options: PLAN_OPTIONS.filter((o) => options.includes(o)),
    },
  }
}

export function decodeMediaType(text: string): MediaType {
  const t = tokenize(text)
  if (!t) return { kind: 'other', text }
  const stripped = t.params.get('nulls') === 'stripped'
  switch (`${t.main.toLowerCase()}/${t.sub.toLowerCase()}`) {
    case 'application/json':
      return { kind: 'json' }
    case 'application/geo+json':
      return { kind: 'geojson' }
    case 'text/csv':
      return { kind: 'csv' }
    case 'text/plain':
      return { kind: 'text' }
    case 'text/xml':
      return { kind: 'xml' }
    case 'application/openapi+json':
      return { kind: 'openapi' }
    case 'application/x-www-form-urlencoded':
      return { kind: 'form' }
    case 'application/octet-stream':
      return { kind: 'octet' }
    case 'application/vnd.pgrst.plan':
    case 'application/vnd.pgrst.plan+text':
      return planType('text', t.params)
    case 'application/vnd.pgrst.plan+json':
      return planType('json', t.params)
    case 'application/vnd.pgrst.object+json':
    case 'application/vnd.pgrst.object':
      return { kind: 'object', stripNulls: stripped }
    case 'application/vnd.pgrst.array+json':
    case 'application/vnd.pgrst.array':
      return stripped ? { kind: 'array-stripped' } : { kind: 'json' }
    case '*/*':
      return { kind: 'any' }
    default:
      return { kind: 'other', text }
  }
}

/** PostgREST's `toMime`: how a media type is named back in its messages. */
export function toMime(m: MediaType): string {
  switch (m.kind) {
    case 'json':
      return 'application/json'
    case 'geojson':
      return 'application/geo+json'
    case 'csv':
      return 'text/csv'
    case 'text':
      return 'text/plain'
    case 'xml':
      return 'text/xml'
    case 'openapi':
      return 'application/openapi+json'
    case 'form':
      return 'application/x-www-form-urlencoded'
    case 'octet':
      return 'application/octet-stream'
    case 'any':
      return '*/*'
    case 'array-stripped':
      return 'application/vnd.pgrst.array+json;nulls=stripped'
    case 'object':
      return `application/vnd.pgrst.object+json${m.stripNulls ? ';nulls=stripped' : ''}`
    case 'plan': {
      const { format, for: target, options } = m.plan
      const opts = options.length ? `; options=${options.join('|')}` : ''
      return `application/vnd.pgrst.plan+${format}; for="${toMime(target)}"${opts}`
    }
    case 'other':
      return m.text
  }
}

/**
 * wai-extra's `parseHttpAccept`: split at commas, every space removed, the `;q=` parameter cut off with whatever
 * follows it, then a stable sort by q (highest first; a q that does not read as a number is 1) and specificity
 * (parameters count up, stars down). A missing header is `*\/*`; an empty one is an empty list.
 */
export function parseAccept(header: string | undefined): MediaType[] {
  if (header === undefined) return [{ kind: 'any' }]
  if (header === '') return []
  const entries = header.split(',').map((raw, index) => {
    const s = raw.replace(/ /g, '')
    const at = s.indexOf(';q=')
    const type = at < 0 ? s : s.slice(0, at)
    const qText = at < 0 ? '' : s.slice(at + 3).split(';')[0]
    const q = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(qText)
    const specificity = (type.match(/;/g)?.length ?? 0) - (type.match(/\*/g)?.length ?? 0)
    return { type, q: q ? Number(q[0]) : 1, specificity, index }
  })
  entries.sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.index - b.index)
  return entries.map((e) => decodeMediaType(e.type))
}

/** What a response is produced as: plain JSON (also for `*\/*` and GeoJSON), one object, CSV, or a plan. */
export type Produced =
  | { kind: 'json'; stripNulls: boolean }
  | { kind: 'object'; stripNulls: boolean }
  | { kind: 'csv' }
  | { kind: 'openapi' }
  | { kind: 'plan'; plan: PlanFormat; of: Produced }

/**
 * PostgREST's `negotiateContent` for tables and functions (and `inspectPlan` for the root): the first accepted
 * entry that can be produced wins. GeoJSON is answered as JSON here, as it always was (no PostGIS). Text, XML,
 * octet streams and other types need PostgREST's custom media handlers, which this backend does not have.
 */
export function negotiate(accepts: MediaType[], target: 'root' | 'resource', planEnabled: boolean): Produced {
  for (const m of accepts) {
    const p = produce(m, target, planEnabled)
    if (p) return p
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accepts.map(toMime).join(', ')}`)
}

/** What one accepted media type is produced as, if it can be (see `negotiate`). */
function produce(m: MediaType, target: 'root' | 'resource', planEnabled: boolean): Produced | undefined {
  if (target === 'root') return ['openapi', 'json', 'any'].includes(m.kind) ? { kind: 'openapi' } : undefined
  switch (m.kind) {
    case 'json':
    case 'any':
    case 'geojson':
      return { kind: 'json', stripNulls: false }
    case 'array-stripped':
      return { kind: 'json', stripNulls: true }
    case 'object':
      return { kind: 'object', stripNulls: m.stripNulls }
    case 'csv':
      return { kind: 'csv' }
    case 'plan': {
      if (!planEnabled) return undefined
      const of = produce(m.plan.for, target, planEnabled)
      return of && of.kind !== 'plan' ? { kind: 'plan', plan: m.plan, of } : undefined
    }
    default:
      return undefined
  }
}

/** How a request body is read, by its Content-Type (none is JSON). */
export type BodyKind = 'json' | 'csv' | 'form' | 'text' | 'xml' | 'bytea'

/**
 * PostgREST's `getPayload`: JSON, CSV and forms for tables and functions; text, XML and octet streams only for a
 * function (whose single unnamed parameter takes the whole body). Anything else is 400 PGRST102.
 */
export function bodyKind(contentType: string | undefined, isRpc: boolean): BodyKind {
  // Every request with a body asks, some twice, and clients send the same few Content-Types: remember the answers.
  const known = (isRpc ? rpcBodyKinds : tableBodyKinds).get(contentType)
  if (known) return known
  const kind = decodeBodyKind(contentType, isRpc)
  remember(isRpc ? rpcBodyKinds : tableBodyKinds, contentType, kind)
  return kind
}

const rpcBodyKinds = new Map<string | undefined, BodyKind>()
const tableBodyKinds = new Map<string | undefined, BodyKind>()

/** Remembers a parsed header's answer; a client sending ever-new values only ever fills it up to 256 and restarts it. */
export function remember<K, V>(cache: Map<K, V>, key: K, value: V) {
  if (cache.size >= 256) cache.clear()
  cache.set(key, value)
}

function decodeBodyKind(contentType: string | undefined, isRpc: boolean): BodyKind {
  const m = contentType === undefined ? ({ kind: 'json' } as MediaType) : decodeMediaType(contentType)
  if (m.kind === 'json' || m.kind === 'csv' || m.kind === 'form') return m.kind
  if (isRpc && m.kind === 'text') return 'text'
  if (isRpc && m.kind === 'xml') return 'xml'
  if (isRpc && m.kind === 'octet') return 'bytea'
  throw new RestError(400, 'PGRST102', `Content-Type not acceptable: ${toMime(m)}`)
}
