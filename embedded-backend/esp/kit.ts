/** The sandbox's Kit API v4 (see supabase/functions/_shared/esp/kit.ts for the docs it follows). */
import { createHash } from 'node:crypto'
import {
  ESP_SANDBOX_KEYS,
  limitOf,
  pageOf,
  json,
  mask,
  obj,
  refused,
  SANDBOX_TARGETS,
  target,
  text,
  type ProviderAnswer,
  type ProviderRequest,
} from './common'
import { reportedClicks, reportedOpens, type EspStore, type SandboxSubscriber } from './store'

export const kitError = (status: number, ...errors: string[]) => json(status, { errors })
const kitId = (email: string) =>
  String(100000 + (parseInt(createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 8), 16) % 900000))

function kitSubscriber(s: SandboxSubscriber) {
  return {
    id: Number(s.remoteId),
    first_name: s.fields.first_name ?? null,
    email_address: s.email,
    state: s.fields.state ?? 'active',
    created_at: s.createdAt,
    fields: {},
  }
}

/** Kit parses the referrer's utm_* parameters into `referrer_utm_parameters`. */
function utm(referrer: string) {
  let params = new URLSearchParams()
  try {
    params = new URL(referrer).searchParams
  } catch {
    // Not a URL: no parameters.
  }
  const get = (k: string) => params.get(`utm_${k}`) ?? ''
  return {
    source: get('source'),
    medium: get('medium'),
    campaign: get('campaign'),
    term: get('term'),
    content: get('content'),
  }
}

/** GET /v4/forms: the sandbox forms, one page. */
function forms(req: ProviderRequest) {
  const forms = SANDBOX_TARGETS.kit.map((t) => ({
    id: Number(t.id),
    name: t.name,
    created_at: '2025-01-01T00:00:00Z',
    type: 'embed',
    format: 'inline',
    embed_js: `https://local.kit.test/${t.id}/index.js`,
    embed_url: `https://local.kit.test/${t.id}`,
    archived: false,
    uid: `local${t.id}`,
  }))
  return json(200, {
    forms,
    pagination: {
      has_previous_page: false,
      has_next_page: false,
      start_cursor: null,
      end_cursor: null,
      per_page: Number(req.query.get('per_page') ?? 500),
    },
  })
}

/** POST /v4/subscribers: adds a subscriber (to no form yet), or answers the one already there. */
async function createSubscriber(store: EspStore, reqBody: unknown) {
  const body = obj(reqBody)
  const email = text(body.email_address)
  if (refused(email)) return kitError(422, 'Email address is invalid')
  if (
    body.state !== undefined &&
    !['active', 'inactive', 'bounced', 'cancelled', 'complained'].includes(text(body.state))
  ) {
    return kitError(422, 'State is not included in the list')
  }
  const { created, subscriber } = await store.put({
    provider: 'kit',
    target: '',
    email,
    remoteId: kitId(email),
    fields: body,
  })
  return json(created ? 201 : 200, { subscriber: kitSubscriber(subscriber) })
}

/** POST /v4/forms/{id}/subscribers: adds an existing subscriber to a form, with the referrer's utm parameters. */
async function addToForm(store: EspStore, formId: string, reqBody: unknown) {
  const f = target('kit', formId)
  if (!f) return kitError(404, 'Not Found')
  const body = obj(reqBody)
  const email = text(body.email_address)
  // "The subscriber being added to the form must already exist."
  const known = await store.get('kit', '', email)
  if (!known) return kitError(404, 'Not Found')
  const referrer = text(body.referrer)
  const { created, subscriber } = await store.put({
    provider: 'kit',
    target: f.id,
    email,
    remoteId: known.remoteId,
    fields: { ...known.fields, referrer },
  })
  return json(created ? 201 : 200, {
    subscriber: {
      ...kitSubscriber(subscriber),
      added_at: subscriber.createdAt,
      referrer,
      referrer_utm_parameters: utm(referrer),
    },
  })
}

/** POST /v4/subscribers/{id}/unsubscribe: the subscriber is cancelled (on every form), 204. */
async function unsubscribe(store: EspStore, id: string) {
  const rows = (await store.subscribers('kit')).filter((s) => s.remoteId === id)
  if (rows.length === 0) return kitError(404, 'Not Found')
  for (const s of rows) {
    await store.put({ ...s, fields: { ...s.fields, state: 'cancelled' } })
  }
  return { status: 204 }
}

/** A Kit subscriber's stats as both the stats read and the filter's `stats` include report them. */
function kitStats(s: SandboxSubscriber) {
  const opened = reportedOpens(s.engagement)
  const clicked = reportedClicks(s.engagement)
  const sent = Math.max(opened, 1)
  return { sent, opened, clicked, bounced: 0, open_rate: opened / sent, click_rate: clicked / sent }
}

/**
 * POST /v4/subscribers/filter: the conditions the sandbox knows (`subscribed` with `after`/`before`, YYYY-MM-DD),
 * `include: [{ type: "stats" }]`, `per_page` (at most 1000) and the `after` cursor; one row per subscriber (Kit's
 * subscribers are account-wide), `pagination` as the other Kit lists.
 */
async function filterSubscribers(store: EspStore, reqBody: unknown) {
  const body = obj(reqBody)
  const all = Array.isArray(body.all) ? body.all.map(obj) : []
  const unknown = all.find((c) => c.type !== 'subscribed')
  if (unknown)
    return kitError(422, `The local sandbox filters by the subscribed condition only, not ${text(unknown.type)}`)
  const bound = (c: Record<string, unknown>, k: string) => (text(c[k]) ? Date.parse(text(c[k])) : Number.NaN)
  const include = Array.isArray(body.include) ? body.include.map(obj) : []
  const stats = include.some((i) => i.type === 'stats')
  const perPage = limitOf(String(body.per_page ?? ''), 500, 1000)
  const byId = new Map<string, SandboxSubscriber>()
  for (const s of await store.subscribers('kit')) if (!byId.has(s.remoteId)) byId.set(s.remoteId, s)
  const rows = [...byId.values()]
    .filter((s) =>
      all.every((c) => {
        const at = Date.parse(s.createdAt)
        const after = bound(c, 'after')
        const before = bound(c, 'before')
        return (Number.isNaN(after) || at >= after) && (Number.isNaN(before) || at < before)
      }),
    )
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.email.localeCompare(b.email))
  const { page, next } = pageOf(rows, text(body.after) || null, perPage)
  return json(200, {
    subscribers: page.map((s) => ({ ...kitSubscriber(s), ...(stats ? { stats: kitStats(s) } : {}) })),
    pagination: {
      has_previous_page: false,
      has_next_page: next !== null,
      start_cursor: null,
      end_cursor: next,
      per_page: perPage,
      total_count: rows.length,
    },
  })
}

export async function kit(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const key = req.headers['x-kit-api-key']
  const auth = key ? mask('X-Kit-Api-Key', key) : null
  if (key !== ESP_SANDBOX_KEYS.kit) return { auth, response: kitError(401, 'The access token is invalid') }
  const p = req.path
  if (req.method === 'GET' && p === '/v4/forms') return { auth, response: forms(req) }
  if (req.method === 'POST' && p === '/v4/subscribers')
    return { auth, response: await createSubscriber(store, req.body) }
  const cancel = /^\/v4\/subscribers\/([^/]+)\/unsubscribe$/.exec(p)
  if (req.method === 'POST' && cancel)
    return { auth, response: await unsubscribe(store, decodeURIComponent(cancel[1]!)) }
  const form = /^\/v4\/forms\/([^/]+)\/subscribers$/.exec(p)
  if (req.method === 'POST' && form) {
    return { auth, response: await addToForm(store, decodeURIComponent(form[1]!), req.body) }
  }
  if (req.method === 'POST' && p === '/v4/subscribers/filter')
    return { auth, response: await filterSubscribers(store, req.body) }
  // List stats for a subscriber (GET /v4/subscribers/{id}/stats): Kit's totals, machines included (it does not tell
  // them apart).
  const stats = /^\/v4\/subscribers\/([^/]+)\/stats$/.exec(p)
  if (req.method === 'GET' && stats) {
    const id = decodeURIComponent(stats[1]!)
    const s = (await store.subscribers('kit')).find((x) => x.remoteId === id)
    if (!s) return { auth, response: kitError(404, 'Not Found') }
    const opened = reportedOpens(s.engagement)
    const clicked = reportedClicks(s.engagement)
    const sent = Math.max(opened, 1)
    return {
      auth,
      response: json(200, {
        subscriber: {
          id: Number(id),
          stats: {
            sent,
            opened,
            clicked,
            bounced: 0,
            open_rate: opened / sent,
            click_rate: clicked / sent,
            last_sent: s.createdAt,
            last_opened: opened ? s.updatedAt : null,
            last_clicked: clicked ? s.updatedAt : null,
            sends_since_last_open: opened ? 0 : sent,
            sends_since_last_click: clicked ? 0 : sent,
          },
        },
      }),
    }
  }
  return { auth, response: kitError(404, 'Not Found') }
}
