/** The sandbox's MailerLite API (see supabase/functions/_shared/esp/mailerlite.ts for the docs it follows). */
import {
  ESP_SANDBOX_KEYS,
  limitOf,
  pageOf,
  isIp,
  json,
  md5,
  mask,
  obj,
  refused,
  SANDBOX_TARGETS,
  target,
  text,
  type ProviderAnswer,
  type ProviderRequest,
} from './common'
import { reportedClicks, reportedOpens, type EspStore } from './store'

export const mlError = (status: number, message: string, errors?: Record<string, string[]>) =>
  json(status, { message, ...(errors ? { errors } : {}) })
const ML_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

async function mailerliteSubscriber(store: EspStore, email: string) {
  const rows = (await store.subscribers('mailerlite')).filter((s) => s.email === email.toLowerCase())
  if (!rows.length) return undefined
  const first = rows[rows.length - 1]!
  const f = first.fields
  return {
    id: first.remoteId,
    email: first.email,
    status: f.status ?? 'active',
    source: 'api',
    sent: 10,
    opens_count: reportedOpens(first.engagement),
    clicks_count: reportedClicks(first.engagement),
    open_rate: reportedOpens(first.engagement) * 10,
    click_rate: reportedClicks(first.engagement) * 10,
    ip_address: f.ip_address ?? null,
    subscribed_at: first.createdAt.slice(0, 19).replace('T', ' '),
    unsubscribed_at: null,
    created_at: first.createdAt.slice(0, 19).replace('T', ' '),
    updated_at: first.updatedAt.slice(0, 19).replace('T', ' '),
    fields: {},
    groups: rows.map((r) => ({ id: r.target, name: target('mailerlite', r.target)?.name ?? r.target })),
    opted_in_at: f.opted_in_at ?? null,
    optin_ip: f.optin_ip ?? null,
  }
}

/**
 * GET /api/groups/{id}/subscribers: `limit` (at most 1000, default 25), `cursor` (`meta.next_cursor`),
 * `filter[status]`; each subscriber as the single read shows it (opens_count, clicks_count, open_rate, click_rate).
 */
async function groupSubscribers(req: ProviderRequest, store: EspStore, groupId: string) {
  if (!target('mailerlite', groupId)) return mlError(404, 'Resource not found.')
  const limit = limitOf(req.query.get('limit'), 25, 1000)
  const status = req.query.get('filter[status]')
  const rows = (await store.subscribers('mailerlite'))
    .filter((s) => s.target === groupId && (!status || text(s.fields.status ?? 'active') === status))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.email.localeCompare(b.email))
  const { page, next } = pageOf(rows, req.query.get('cursor'), limit)
  const data = await Promise.all(page.map((s) => mailerliteSubscriber(store, s.email)))
  return json(200, {
    data,
    links: { first: null, last: null, prev: null, next: null },
    meta: { path: `/api/groups/${groupId}/subscribers`, per_page: limit, next_cursor: next, prev_cursor: null },
  })
}

/** GET /api/groups: the sandbox groups, one page. */
function groupsAnswer() {
  const all = SANDBOX_TARGETS.mailerlite
  const data = all.map((t) => ({
    id: t.id,
    name: t.name,
    active_count: 0,
    sent_count: 0,
    opens_count: 0,
    open_rate: { float: 0, string: '0%' },
    clicks_count: 0,
    click_rate: { float: 0, string: '0%' },
    unsubscribed_count: 0,
    unconfirmed_count: 0,
    bounced_count: 0,
    junk_count: 0,
    created_at: '2025-01-01 00:00:00',
  }))
  return json(200, {
    data,
    links: { first: null, last: null, prev: null, next: null },
    meta: {
      current_page: 1,
      from: 1,
      last_page: 1,
      path: '/api/groups',
      per_page: 250,
      to: data.length,
      total: data.length,
    },
  })
}

/** What MailerLite refuses in a new or updated subscriber, by field, in its 422 shape. */
function subscriberErrors(body: Record<string, unknown>, email: string, groups: string[]) {
  const errors: Record<string, string[]> = {}
  if (refused(email)) errors.email = ['The email must be a valid email address.']
  if (
    body.status !== undefined &&
    !['active', 'unsubscribed', 'unconfirmed', 'bounced', 'junk'].includes(text(body.status))
  )
    errors.status = ['The selected status is invalid.']
  groups.forEach((g, i) => {
    if (!target('mailerlite', g)) errors[`groups.${i}`] = [`The selected groups.${i} is invalid.`]
  })
  for (const k of ['opted_in_at', 'subscribed_at'] as const) {
    if (body[k] !== undefined && !ML_TIME.test(text(body[k])))
      errors[k] = [`The ${k.replace(/_/g, ' ')} does not match the format Y-m-d H:i:s.`]
  }
  if (body.optin_ip !== undefined && !isIp(text(body.optin_ip)))
    errors.optin_ip = ['The optin ip must be a valid IP address.']
  return errors
}

/** POST /api/subscribers: adds or updates a subscriber, in each group given. */
async function upsert(store: EspStore, reqBody: unknown) {
  const body = obj(reqBody)
  const email = text(body.email)
  const groups = Array.isArray(body.groups) ? body.groups.map(String) : []
  const errors = subscriberErrors(body, email, groups)
  const messages = Object.values(errors).flat()
  if (messages.length) {
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more error${messages.length > 2 ? 's' : ''})` : ''
    return mlError(422, `${messages[0]}${more}`, errors)
  }
  const known = await store.find('mailerlite', email)
  const remoteId =
    known?.remoteId ?? String(200000000000000000n + BigInt(parseInt(md5(email.toLowerCase()).slice(0, 12), 16)))
  let created = !known
  for (const g of groups.length ? groups : ['']) {
    await store.put({ provider: 'mailerlite', target: g, email, remoteId, fields: body })
  }
  const data = await mailerliteSubscriber(store, email)
  created = created && !!data
  return json(created ? 201 : 200, { data })
}

/** DELETE /api/subscribers/{id}/groups/{group_id}: the subscriber leaves the group, 204. */
async function unassignGroup(store: EspStore, match: RegExpExecArray) {
  const [id, group] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)]
  const s = (await store.subscribers('mailerlite')).find((x) => x.remoteId === id && x.target === group)
  if (!s) return mlError(404, 'Resource not found.')
  await store.remove('mailerlite', group, s.email)
  return { status: 204 }
}

export async function mailerlite(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const auth = bearer ? mask('Bearer', bearer) : null
  if (bearer !== ESP_SANDBOX_KEYS.mailerlite) return { auth, response: mlError(401, 'Unauthenticated.') }
  const p = req.path
  if (req.method === 'GET' && p === '/api/groups') return { auth, response: groupsAnswer() }
  if (req.method === 'POST' && p === '/api/subscribers') return { auth, response: await upsert(store, req.body) }
  const members = /^\/api\/groups\/([^/]+)\/subscribers$/.exec(p)
  if (req.method === 'GET' && members)
    return { auth, response: await groupSubscribers(req, store, decodeURIComponent(members[1]!)) }
  const unassign = /^\/api\/subscribers\/([^/]+)\/groups\/([^/]+)$/.exec(p)
  if (req.method === 'DELETE' && unassign) return { auth, response: await unassignGroup(store, unassign) }
  const one = /^\/api\/subscribers\/([^/]+)$/.exec(p)
  if (req.method === 'GET' && one) {
    const idOrEmail = decodeURIComponent(one[1]!)
    const email = idOrEmail.includes('@')
      ? idOrEmail
      : (await store.subscribers('mailerlite')).find((s) => s.remoteId === idOrEmail)?.email
    const data = email ? await mailerliteSubscriber(store, email) : undefined
    return { auth, response: data ? json(200, { data }) : mlError(404, 'Resource not found.') }
  }
  return { auth, response: mlError(404, 'Resource not found.') }
}
