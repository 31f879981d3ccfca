/**
 * The four providers as the sandbox plays them: the documented endpoints the clients in
 * supabase/functions/_shared/esp use, each provider's auth header and its answer and error shapes (see the
 * docs cited in each client). Only demo keys are accepted (ESP_SANDBOX_KEYS); any other key gets the
 * provider's own 401. Addresses at the reserved `.invalid` TLD (RFC 2606) are refused with the provider's
 * validation error, so a developer or test can provoke a final rejection.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { ApiResponse } from '../context'
import type { EspStore, SandboxSubscriber } from './store'

export type SandboxProvider = 'beehiiv' | 'kit' | 'mailchimp' | 'mailerlite'
export const SANDBOX_PROVIDERS: readonly SandboxProvider[] = ['beehiiv', 'kit', 'mailchimp', 'mailerlite']

/** The keys the sandbox accepts (public on purpose: they open nothing but this sandbox). Mailchimp's ends in a data centre, as real keys do. */
export const ESP_SANDBOX_KEYS: Record<SandboxProvider, string> = {
  beehiiv: 'local-beehiiv-key',
  kit: 'local-kit-key',
  mailchimp: 'local-mailchimp-key-us1',
  mailerlite: 'local-mailerlite-key',
}

/** The path prefix each provider's real base has (so `ESP_*_API_URL` = `<api>/esp/<provider><prefix>`). */
export const SANDBOX_BASE_PATHS: Record<SandboxProvider, string> = {
  beehiiv: '/v2',
  kit: '/v4',
  mailchimp: '/3.0',
  mailerlite: '/api',
}

/** Demo lists an advertiser can pick from in development. */
export const SANDBOX_TARGETS: Record<SandboxProvider, { id: string; name: string }[]> = {
  beehiiv: [
    { id: 'pub_00000000-0000-4000-8000-000000000001', name: 'Demo Weekly (beehiiv)' },
    { id: 'pub_00000000-0000-4000-8000-000000000002', name: 'Demo Daily Brief (beehiiv)' },
  ],
  kit: [
    { id: '1001', name: 'Demo newsletter sign-up (Kit)' },
    { id: '1002', name: 'Demo lead magnet (Kit)' },
  ],
  mailchimp: [
    { id: 'a1b2c3d4e5', name: 'Demo audience (Mailchimp)' },
    { id: 'f6e7d8c9b0', name: 'Demo customers (Mailchimp)' },
  ],
  mailerlite: [
    { id: '100000000000000001', name: 'Demo subscribers (MailerLite)' },
    { id: '100000000000000002', name: 'Demo partners (MailerLite)' },
  ],
}

export type ProviderRequest = { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: unknown }
/** An answer, and the masked credential it came with (for the log). */
export type ProviderAnswer = { response: ApiResponse; auth: string | null }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const refused = (email: string) => !EMAIL.test(email) || /\.invalid$/i.test(email)
const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body,
})
/** `Bearer loca…-key`: enough to see which key was used, not the key. */
export function mask(scheme: string, secret: string): string {
  return `${scheme} ${secret.length > 10 ? `${secret.slice(0, 4)}…${secret.slice(-4)}` : '…'}`
}
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const text = (v: unknown) => (typeof v === 'string' ? v : '')
const target = (provider: SandboxProvider, id: string) => SANDBOX_TARGETS[provider].find((t) => t.id === id)

// ---------------------------------------------------------------------------------------------- beehiiv
const beehiivError = (status: number, statusText: string, message: string, code: string) =>
  json(status, { status, statusText, errors: [{ message, code }] })

function beehiivSubscription(s: SandboxSubscriber, stats: boolean) {
  const f = s.fields
  return {
    id: s.remoteId,
    email: s.email,
    status: f.double_opt_override === 'off' ? 'active' : 'validating',
    created: Math.floor(Date.parse(s.createdAt) / 1000),
    subscription_tier: 'free',
    utm_source: f.utm_source ?? '',
    utm_medium: f.utm_medium ?? '',
    utm_channel: '',
    utm_campaign: f.utm_campaign ?? '',
    referring_site: f.referring_site ?? '',
    referral_code: s.remoteId.slice(4, 14),
    // Percentages, as beehiiv reports them.
    ...(stats
      ? { stats: { emails_received: 10, open_rate: s.engagement.opens * 10, click_through_rate: s.engagement.clicks * 10 } }
      : {}),
  }
}

async function beehiiv(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const auth = bearer ? mask('Bearer', bearer) : null
  if (bearer !== ESP_SANDBOX_KEYS.beehiiv) return { auth, response: beehiivError(401, 'Unauthorized', 'Unauthorized', 'unauthorized') }
  const notFound = (what: string) => ({ auth, response: beehiivError(404, 'Not Found', `${what} not found`, 'not_found') })
  const p = req.path
  if (req.method === 'GET' && p === '/v2/publications') {
    const all = SANDBOX_TARGETS.beehiiv
    const limit = Math.min(100, Number(req.query.get('limit') ?? 10) || 10)
    const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1)
    const data = all.slice((page - 1) * limit, page * limit).map((t) => ({ id: t.id, name: t.name, organization_name: 'Local sandbox', referral_program_enabled: false, created: 1735689600 }))
    return { auth, response: json(200, { data, limit, page, total_results: all.length, total_pages: Math.max(1, Math.ceil(all.length / limit)) }) }
  }
  const pub = /^\/v2\/publications\/([^/]+)(\/.*)?$/.exec(p)
  if (!pub) return notFound('Resource')
  const publication = target('beehiiv', decodeURIComponent(pub[1]!))
  if (!publication) return notFound('Publication')
  const rest = pub[2] ?? ''
  if (req.method === 'GET' && rest === '') {
    return { auth, response: json(200, { data: { id: publication.id, name: publication.name, organization_name: 'Local sandbox', referral_program_enabled: false, created: 1735689600 } }) }
  }
  if (req.method === 'POST' && rest === '/subscriptions') {
    const body = obj(req.body)
    const email = text(body.email)
    if (refused(email)) return { auth, response: beehiivError(400, 'Bad Request', `Invalid email: ${email || '(blank)'}`, 'invalid_email') }
    if (body.double_opt_override !== undefined && !['on', 'off', 'not_set'].includes(text(body.double_opt_override))) {
      return { auth, response: beehiivError(400, 'Bad Request', 'double_opt_override must be one of on, off, not_set', 'invalid_parameter') }
    }
    const existing = await store.get('beehiiv', publication.id, email)
    const { created, subscriber } = await store.put({ provider: 'beehiiv', target: publication.id, email, remoteId: existing?.remoteId ?? `sub_${randomUUID()}`, fields: body })
    return { auth, response: json(created ? 201 : 200, { data: beehiivSubscription(subscriber, false) }) }
  }
  const byEmail = /^\/subscriptions\/by_email\/([^/]+)$/.exec(rest)
  if (req.method === 'GET' && byEmail) {
    const s = await store.get('beehiiv', publication.id, decodeURIComponent(byEmail[1]!))
    if (!s) return notFound('Subscription')
    const expand = [...req.query.getAll('expand[]'), ...req.query.getAll('expand')]
    return { auth, response: json(200, { data: beehiivSubscription(s, expand.includes('stats')) }) }
  }
  return notFound('Resource')
}

// -------------------------------------------------------------------------------------------------- Kit
const kitError = (status: number, ...errors: string[]) => json(status, { errors })
const kitId = (email: string) => String(100000 + (parseInt(createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 8), 16) % 900000))

function kitSubscriber(s: SandboxSubscriber) {
  return { id: Number(s.remoteId), first_name: s.fields.first_name ?? null, email_address: s.email, state: s.fields.state ?? 'active', created_at: s.createdAt, fields: {} }
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
  return { source: get('source'), medium: get('medium'), campaign: get('campaign'), term: get('term'), content: get('content') }
}

async function kit(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const key = req.headers['x-kit-api-key']
  const auth = key ? mask('X-Kit-Api-Key', key) : null
  if (key !== ESP_SANDBOX_KEYS.kit) return { auth, response: kitError(401, 'The access token is invalid') }
  const p = req.path
  if (req.method === 'GET' && p === '/v4/forms') {
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
    return { auth, response: json(200, { forms, pagination: { has_previous_page: false, has_next_page: false, start_cursor: null, end_cursor: null, per_page: Number(req.query.get('per_page') ?? 500) } }) }
  }
  if (req.method === 'POST' && p === '/v4/subscribers') {
    const body = obj(req.body)
    const email = text(body.email_address)
    if (refused(email)) return { auth, response: kitError(422, 'Email address is invalid') }
    if (body.state !== undefined && !['active', 'inactive', 'bounced', 'cancelled', 'complained'].includes(text(body.state))) {
      return { auth, response: kitError(422, 'State is not included in the list') }
    }
    const { created, subscriber } = await store.put({ provider: 'kit', target: '', email, remoteId: kitId(email), fields: body })
    return { auth, response: json(created ? 201 : 200, { subscriber: kitSubscriber(subscriber) }) }
  }
  const form = /^\/v4\/forms\/([^/]+)\/subscribers$/.exec(p)
  if (req.method === 'POST' && form) {
    const f = target('kit', decodeURIComponent(form[1]!))
    if (!f) return { auth, response: kitError(404, 'Not Found') }
    const body = obj(req.body)
    const email = text(body.email_address)
    // "The subscriber being added to the form must already exist."
    const known = await store.get('kit', '', email)
    if (!known) return { auth, response: kitError(404, 'Not Found') }
    const referrer = text(body.referrer)
    const { created, subscriber } = await store.put({ provider: 'kit', target: f.id, email, remoteId: known.remoteId, fields: { ...known.fields, referrer } })
    return {
      auth,
      response: json(created ? 201 : 200, {
        subscriber: { ...kitSubscriber(subscriber), added_at: subscriber.createdAt, referrer, referrer_utm_parameters: utm(referrer) },
      }),
    }
  }
  return { auth, response: kitError(404, 'Not Found') }
}

// --------------------------------------------------------------------------------------------- Mailchimp
const problem = (status: number, title: string, detail: string, errors?: { field: string; message: string }[]) =>
  json(status, { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail, instance: randomUUID(), ...(errors ? { errors } : {}) }, {
    'content-type': 'application/problem+json; charset=utf-8',
  })
const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/
const isIp = (s: string) => (IPV4.test(s) && s.split('.').every((n) => Number(n) <= 255)) || (/^[0-9a-f:]+$/i.test(s) && s.includes(':'))

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
    stats: { avg_open_rate: Math.min(1, s.engagement.opens / 10), avg_click_rate: Math.min(1, s.engagement.clicks / 10) },
    list_id: listId,
    last_changed: s.updatedAt,
  }
}

async function mailchimp(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  // HTTP Basic with any user name and the API key as password.
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const password = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':') : undefined
  const auth = basic ? mask('Basic', password ?? '') : null
  if (password !== ESP_SANDBOX_KEYS.mailchimp) {
    return { auth, response: problem(401, 'API Key Invalid', "Your API key may be invalid, or you've attempted to access the wrong datacenter.") }
  }
  const notFound = () => ({ auth, response: problem(404, 'Resource Not Found', 'The requested resource could not be found.') })
  const p = req.path
  if (req.method === 'GET' && p === '/3.0/lists') {
    const lists = await Promise.all(
      SANDBOX_TARGETS.mailchimp.map(async (t) => ({ id: t.id, name: t.name, stats: { member_count: (await store.subscribers('mailchimp')).filter((s) => s.target === t.id).length } })),
    )
    return { auth, response: json(200, { lists, total_items: lists.length }) }
  }
  const list = /^\/3\.0\/lists\/([^/]+)(\/.*)?$/.exec(p)
  const audience = list ? target('mailchimp', decodeURIComponent(list[1]!)) : undefined
  if (!list || !audience) return notFound()
  const rest = list[2] ?? ''
  if (req.method === 'GET' && rest === '') return { auth, response: json(200, { id: audience.id, name: audience.name }) }
  const member = /^\/members\/([^/]+)(\/tags)?$/.exec(rest)
  if (!member) return notFound()
  const hash = decodeURIComponent(member[1]!).toLowerCase()
  const existing = (await store.subscribers('mailchimp')).find((s) => s.target === audience.id && s.remoteId === hash)
  if (req.method === 'PUT' && !member[2]) {
    const body = obj(req.body)
    const email = text(body.email_address)
    if (refused(email)) {
      return { auth, response: problem(400, 'Invalid Resource', `${email || 'The email address'} looks fake or invalid, please enter a real email address.`) }
    }
    if (md5(email.toLowerCase()) !== hash) {
      return { auth, response: problem(400, 'Invalid Resource', 'The subscriber hash in the path does not match the email address.') }
    }
    const errors: { field: string; message: string }[] = []
    if (!existing && !['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional'].includes(text(body.status_if_new))) {
      errors.push({ field: 'status_if_new', message: 'The status_if_new field is required for a new member.' })
    }
    if (body.ip_opt !== undefined && !isIp(text(body.ip_opt))) errors.push({ field: 'ip_opt', message: 'This value is not a valid IP address.' })
    if (body.timestamp_opt !== undefined && Number.isNaN(Date.parse(text(body.timestamp_opt)))) {
      errors.push({ field: 'timestamp_opt', message: 'This value is not a valid ISO 8601 date and time.' })
    }
    if (errors.length) return { auth, response: problem(400, 'Invalid Resource', 'The resource submitted could not be validated. For field-specific details, see the \'errors\' array.', errors) }
    const { subscriber } = await store.put({ provider: 'mailchimp', target: audience.id, email, remoteId: hash, fields: body })
    return { auth, response: json(200, mailchimpMember(audience.id, subscriber)) }
  }
  if (!existing) return notFound()
  if (req.method === 'POST' && member[2]) {
    const tags = obj(req.body).tags
    if (!Array.isArray(tags) || tags.some((t) => !text(obj(t).name) || !['active', 'inactive'].includes(text(obj(t).status)))) {
      return { auth, response: problem(400, 'Invalid Resource', 'tags must be a list of { name, status: active | inactive }.') }
    }
    const current = new Set(Array.isArray(existing.fields.tags) ? (existing.fields.tags as { name: string }[]).map((t) => t.name) : [])
    for (const t of tags) {
      if (obj(t).status === 'active') current.add(text(obj(t).name))
      else current.delete(text(obj(t).name))
    }
    await store.put({ provider: 'mailchimp', target: audience.id, email: existing.email, remoteId: hash, fields: { tags: [...current].map((name) => ({ id: md5(name).slice(0, 6), name })) } })
    return { auth, response: { status: 204 } }
  }
  if (req.method === 'GET' && !member[2]) return { auth, response: json(200, mailchimpMember(audience.id, existing)) }
  return notFound()
}

// -------------------------------------------------------------------------------------------- MailerLite
const mlError = (status: number, message: string, errors?: Record<string, string[]>) => json(status, { message, ...(errors ? { errors } : {}) })
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
    opens_count: first.engagement.opens,
    clicks_count: first.engagement.clicks,
    open_rate: first.engagement.opens * 10,
    click_rate: first.engagement.clicks * 10,
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

async function mailerlite(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const auth = bearer ? mask('Bearer', bearer) : null
  if (bearer !== ESP_SANDBOX_KEYS.mailerlite) return { auth, response: mlError(401, 'Unauthenticated.') }
  const p = req.path
  if (req.method === 'GET' && p === '/api/groups') {
    const all = SANDBOX_TARGETS.mailerlite
    const data = all.map((t) => ({ id: t.id, name: t.name, active_count: 0, sent_count: 0, opens_count: 0, open_rate: { float: 0, string: '0%' }, clicks_count: 0, click_rate: { float: 0, string: '0%' }, unsubscribed_count: 0, unconfirmed_count: 0, bounced_count: 0, junk_count: 0, created_at: '2025-01-01 00:00:00' }))
    return { auth, response: json(200, { data, links: { first: null, last: null, prev: null, next: null }, meta: { current_page: 1, from: 1, last_page: 1, path: '/api/groups', per_page: 250, to: data.length, total: data.length } }) }
  }
  if (req.method === 'POST' && p === '/api/subscribers') {
    const body = obj(req.body)
    const email = text(body.email)
    const errors: Record<string, string[]> = {}
    if (refused(email)) errors.email = ['The email must be a valid email address.']
    if (body.status !== undefined && !['active', 'unsubscribed', 'unconfirmed', 'bounced', 'junk'].includes(text(body.status))) errors.status = ['The selected status is invalid.']
    const groups = Array.isArray(body.groups) ? body.groups.map(String) : []
    groups.forEach((g, i) => {
      if (!target('mailerlite', g)) errors[`groups.${i}`] = [`The selected groups.${i} is invalid.`]
    })
    for (const k of ['opted_in_at', 'subscribed_at'] as const) {
      if (body[k] !== undefined && !ML_TIME.test(text(body[k]))) errors[k] = [`The ${k.replace(/_/g, ' ')} does not match the format Y-m-d H:i:s.`]
    }
    if (body.optin_ip !== undefined && !isIp(text(body.optin_ip))) errors.optin_ip = ['The optin ip must be a valid IP address.']
    const messages = Object.values(errors).flat()
    if (messages.length) {
      const more = messages.length > 1 ? ` (and ${messages.length - 1} more error${messages.length > 2 ? 's' : ''})` : ''
      return { auth, response: mlError(422, `${messages[0]}${more}`, errors) }
    }
    const known = await store.find('mailerlite', email)
    const remoteId = known?.remoteId ?? String(200000000000000000n + BigInt(parseInt(md5(email.toLowerCase()).slice(0, 12), 16)))
    let created = !known
    for (const g of groups.length ? groups : ['']) {
      await store.put({ provider: 'mailerlite', target: g, email, remoteId, fields: body })
    }
    const data = await mailerliteSubscriber(store, email)
    created = created && !!data
    return { auth, response: json(created ? 201 : 200, { data }) }
  }
  const one = /^\/api\/subscribers\/([^/]+)$/.exec(p)
  if (req.method === 'GET' && one) {
    const idOrEmail = decodeURIComponent(one[1]!)
    const email = idOrEmail.includes('@') ? idOrEmail : (await store.subscribers('mailerlite')).find((s) => s.remoteId === idOrEmail)?.email
    const data = email ? await mailerliteSubscriber(store, email) : undefined
    return { auth, response: data ? json(200, { data }) : mlError(404, 'Resource not found.') }
  }
  return { auth, response: mlError(404, 'Resource not found.') }
}

export const PROVIDER_HANDLERS: Record<SandboxProvider, (req: ProviderRequest, store: EspStore) => Promise<ProviderAnswer>> = {
  beehiiv,
  kit,
  mailchimp,
  mailerlite,
}

/** A forced failure in the provider's shape, with Retry-After on 429 as the providers send it. */
export function forcedFailure(provider: SandboxProvider, status: number, retryAfterSeconds: number | undefined): ApiResponse {
  const headers: Record<string, string> = retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}
  const message = status === 429 ? 'Too many requests (forced by the local ESP sandbox)' : 'Internal server error (forced by the local ESP sandbox)'
  const answer =
    provider === 'beehiiv'
      ? beehiivError(status, status === 429 ? 'Too Many Requests' : 'Internal Server Error', message, status === 429 ? 'rate_limited' : 'internal_error')
      : provider === 'kit'
        ? kitError(status, message)
        : provider === 'mailchimp'
          ? problem(status, status === 429 ? 'Too Many Requests' : 'Internal Server Error', message)
          : mlError(status, message)
  answer.headers = { ...answer.headers, ...headers }
  return answer
}
