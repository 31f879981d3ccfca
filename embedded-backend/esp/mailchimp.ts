/** The sandbox's Mailchimp Marketing API v3 (see supabase/functions/_shared/esp/mailchimp.ts for the docs it follows). */
import { randomUUID } from 'node:crypto'
import {
  ESP_SANDBOX_KEYS,
  isIp,
  json,
  limitOf,
  mask,
  md5,
  obj,
  refused,
  SANDBOX_TARGETS,
  target,
  text,
  type ProviderAnswer,
  type ProviderRequest,
} from './common'
import { reportedClicks, reportedOpens, type EspStore, type SandboxSubscriber } from './store'

export const problem = (status: number, title: string, detail: string, errors?: { field: string; message: string }[]) =>
  json(
    status,
    {
      type: 'https://mailchimp.com/developer/marketing/docs/errors/',
      title,
      status,
      detail,
      instance: randomUUID(),
      ...(errors ? { errors } : {}),
    },
    {
      'content-type': 'application/problem+json; charset=utf-8',
    },
  )

function mailchimpMember(listId: string, s: SandboxSubscriber) {
  const f = s.fields
  return {
    id: s.remoteId,
    email_address: s.email,
    unique_email_id: s.remoteId.slice(0, 10),
    status: f.status ?? f.status_if_new,
    ip_opt: f.ip_opt ?? '',
    timestamp_opt: f.timestamp_opt ?? '',
    tags: Array.isArray(f.tags) ? f.tags : [],
    // Fractions, as Mailchimp reports them.
    stats: {
      avg_open_rate: Math.min(1, reportedOpens(s.engagement) / 10),
      avg_click_rate: Math.min(1, reportedClicks(s.engagement) / 10),
    },
    list_id: listId,
    last_changed: s.updatedAt,
  }
}

const invalidResource = (detail: string, errors?: { field: string; message: string }[]) =>
  problem(400, 'Invalid Resource', detail, errors)
const notFound = () => problem(404, 'Resource Not Found', 'The requested resource could not be found.')

/** GET /3.0/lists: every sandbox audience with its member count. */
async function lists(store: EspStore) {
  const lists = await Promise.all(
    SANDBOX_TARGETS.mailchimp.map(async (t) => ({
      id: t.id,
      name: t.name,
      stats: { member_count: (await store.subscribers('mailchimp')).filter((s) => s.target === t.id).length },
    })),
  )
  return json(200, { lists, total_items: lists.length })
}

/** What Mailchimp refuses in a member's fields (a new member needs status_if_new). */
function memberErrors(body: Record<string, unknown>, existing: SandboxSubscriber | undefined) {
  const errors: { field: string; message: string }[] = []
  if (
    !existing &&
    !['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional'].includes(text(body.status_if_new))
  ) {
    errors.push({ field: 'status_if_new', message: 'The status_if_new field is required for a new member.' })
  }
  if (body.ip_opt !== undefined && !isIp(text(body.ip_opt)))
    errors.push({ field: 'ip_opt', message: 'This value is not a valid IP address.' })
  if (body.timestamp_opt !== undefined && Number.isNaN(Date.parse(text(body.timestamp_opt)))) {
    errors.push({ field: 'timestamp_opt', message: 'This value is not a valid ISO 8601 date and time.' })
  }
  return errors
}

/** PUT /3.0/lists/{id}/members/{hash}: adds or updates a member (the hash is the lowercased email's MD5). */
async function putMember(
  store: EspStore,
  audienceId: string,
  hash: string,
  existing: SandboxSubscriber | undefined,
  reqBody: unknown,
) {
  const body = obj(reqBody)
  const email = text(body.email_address)
  if (refused(email)) {
    return invalidResource(`${email || 'The email address'} looks fake or invalid, please enter a real email address.`)
  }
  if (md5(email.toLowerCase()) !== hash) {
    return invalidResource('The subscriber hash in the path does not match the email address.')
  }
  const errors = memberErrors(body, existing)
  if (errors.length)
    return invalidResource(
      "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
      errors,
    )
  const { subscriber } = await store.put({
    provider: 'mailchimp',
    target: audienceId,
    email,
    remoteId: hash,
    fields: body,
  })
  return json(200, mailchimpMember(audienceId, subscriber))
}

/** POST /3.0/lists/{id}/members/{hash}/tags: tags made active or inactive on a member. */
async function tagMember(
  store: EspStore,
  audienceId: string,
  hash: string,
  existing: SandboxSubscriber,
  body: unknown,
) {
  const tags = obj(body).tags
  if (
    !Array.isArray(tags) ||
    tags.some((t) => !text(obj(t).name) || !['active', 'inactive'].includes(text(obj(t).status)))
  ) {
    return invalidResource('tags must be a list of { name, status: active | inactive }.')
  }
  const current = new Set(
    Array.isArray(existing.fields.tags) ? (existing.fields.tags as { name: string }[]).map((t) => t.name) : [],
  )
  for (const t of tags) {
    if (obj(t).status === 'active') current.add(text(obj(t).name))
    else current.delete(text(obj(t).name))
  }
  await store.put({
    provider: 'mailchimp',
    target: audienceId,
    email: existing.email,
    remoteId: hash,
    fields: { tags: [...current].map((name) => ({ id: md5(name).slice(0, 6), name })) },
  })
  return { status: 204 }
}

/** PATCH …/members/{hash}: the sandbox changes only `status` (what Growletter sends to unsubscribe a member). */
async function patchStatus(store: EspStore, audienceId: string, existing: SandboxSubscriber, reqBody: unknown) {
  const status = text(obj(reqBody).status)
  if (!['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional'].includes(status)) {
    return invalidResource(
      "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
      [{ field: 'status', message: 'Value is not one of the allowed statuses.' }],
    )
  }
  const { subscriber } = await store.put({ ...existing, fields: { ...existing.fields, status } })
  return json(200, mailchimpMember(audienceId, subscriber))
}

/**
 * GET /3.0/lists/{id}/members: `count` (at most 1000, default 10), `offset`, `since_timestamp_opt` (opted in after it:
 * the member's timestamp_opt, else when the sandbox added it), `{ members, total_items }` as Mailchimp answers (the
 * sandbox ignores `fields` and sends whole members).
 */
async function listMembers(req: ProviderRequest, store: EspStore, audienceId: string) {
  const count = limitOf(req.query.get('count'), 10, 1000)
  const offset = Math.max(0, Number(req.query.get('offset') ?? 0) || 0)
  const sinceRaw = req.query.get('since_timestamp_opt')
  const since = sinceRaw ? Date.parse(sinceRaw) : Number.NaN
  if (sinceRaw && Number.isNaN(since))
    return invalidResource('since_timestamp_opt is not a valid ISO 8601 date and time.')
  const optedIn = (s: SandboxSubscriber) => Date.parse(text(s.fields.timestamp_opt)) || Date.parse(s.createdAt)
  const all = (await store.subscribers('mailchimp'))
    .filter((s) => s.target === audienceId && (Number.isNaN(since) || optedIn(s) > since))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.email.localeCompare(b.email))
  return json(200, {
    members: all.slice(offset, offset + count).map((s) => mailchimpMember(audienceId, s)),
    list_id: audienceId,
    total_items: all.length,
  })
}

/** One audience's own paths: the audience itself and its members. */
async function audienceRoute(
  req: ProviderRequest,
  store: EspStore,
  audience: { id: string; name: string },
  rest: string,
) {
  if (req.method === 'GET' && rest === '') return json(200, { id: audience.id, name: audience.name })
  if (req.method === 'GET' && rest === '/members') return listMembers(req, store, audience.id)
  const member = /^\/members\/([^/]+)(\/tags)?$/.exec(rest)
  if (!member) return notFound()
  const hash = decodeURIComponent(member[1]!).toLowerCase()
  const existing = (await store.subscribers('mailchimp')).find((s) => s.target === audience.id && s.remoteId === hash)
  if (req.method === 'PUT' && !member[2]) return putMember(store, audience.id, hash, existing, req.body)
  if (!existing) return notFound()
  if (req.method === 'POST' && member[2]) return tagMember(store, audience.id, hash, existing, req.body)
  if (req.method === 'GET' && !member[2]) return json(200, mailchimpMember(audience.id, existing))
  if (req.method === 'PATCH' && !member[2]) return patchStatus(store, audience.id, existing, req.body)
  return notFound()
}

export async function mailchimp(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  // HTTP Basic with any user name and the API key as password.
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const password = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':') : undefined
  const auth = basic ? mask('Basic', password ?? '') : null
  if (password !== ESP_SANDBOX_KEYS.mailchimp) {
    return {
      auth,
      response: problem(
        401,
        'API Key Invalid',
        "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      ),
    }
  }
  const p = req.path
  if (req.method === 'GET' && p === '/3.0/lists') return { auth, response: await lists(store) }
  const list = /^\/3\.0\/lists\/([^/]+)(\/.*)?$/.exec(p)
  const audience = list ? target('mailchimp', decodeURIComponent(list[1]!)) : undefined
  if (!list || !audience) return { auth, response: notFound() }
  return { auth, response: await audienceRoute(req, store, audience, list[2] ?? '') }
}
