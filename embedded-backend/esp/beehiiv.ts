/** The sandbox's beehiiv API v2 (see supabase/functions/_shared/esp/beehiiv.ts for the docs it follows). */
import { randomUUID } from 'node:crypto'
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

export const beehiivError = (status: number, statusText: string, message: string, code: string) =>
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
      ? {
          stats: {
            emails_received: 10,
            open_rate: reportedOpens(s.engagement) * 10,
            click_through_rate: reportedClicks(s.engagement) * 10,
          },
        }
      : {}),
  }
}

/** GET /v2/publications: the sandbox publications, a page at a time. */
function publications(req: ProviderRequest) {
  const all = SANDBOX_TARGETS.beehiiv
  const limit = Math.min(100, Number(req.query.get('limit') ?? 10) || 10)
  const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1)
  const data = all.slice((page - 1) * limit, page * limit).map((t) => ({
    id: t.id,
    name: t.name,
    organization_name: 'Local sandbox',
    referral_program_enabled: false,
    created: 1735689600,
  }))
  return json(200, {
    data,
    limit,
    page,
    total_results: all.length,
    total_pages: Math.max(1, Math.ceil(all.length / limit)),
  })
}

/** POST /v2/publications/{id}/subscriptions: adds a subscriber, or answers the one already there. */
async function subscribe(store: EspStore, publicationId: string, reqBody: unknown) {
  const body = obj(reqBody)
  const email = text(body.email)
  if (refused(email)) return beehiivError(400, 'Bad Request', `Invalid email: ${email || '(blank)'}`, 'invalid_email')
  if (body.double_opt_override !== undefined && !['on', 'off', 'not_set'].includes(text(body.double_opt_override))) {
    return beehiivError(400, 'Bad Request', 'double_opt_override must be one of on, off, not_set', 'invalid_parameter')
  }
  const existing = await store.get('beehiiv', publicationId, email)
  const { created, subscriber } = await store.put({
    provider: 'beehiiv',
    target: publicationId,
    email,
    remoteId: existing?.remoteId ?? `sub_${randomUUID()}`,
    fields: body,
  })
  return json(created ? 201 : 200, { data: beehiivSubscription(subscriber, false) })
}

/**
 * GET /v2/publications/{id}/subscriptions: `limit` (1..100, default 10), `cursor` (`next_cursor`, `has_more`),
 * `order_by=created` with `direction` (asc by default), `expand[]=stats`; `total_results` as beehiiv answers.
 */
async function listSubscriptions(req: ProviderRequest, store: EspStore, publicationId: string) {
  const limit = limitOf(req.query.get('limit'), 10, 100)
  const desc = req.query.get('direction') === 'desc'
  const expand = [...req.query.getAll('expand[]'), ...req.query.getAll('expand')]
  const rows = (await store.subscribers('beehiiv'))
    .filter((s) => s.target === publicationId)
    .sort((a, b) => (desc ? -1 : 1) * (a.createdAt.localeCompare(b.createdAt) || a.email.localeCompare(b.email)))
  const { page, next } = pageOf(rows, req.query.get('cursor'), limit)
  return json(200, {
    data: page.map((s) => beehiivSubscription(s, expand.includes('stats'))),
    limit,
    has_more: next !== null,
    next_cursor: next,
    total_results: rows.length,
  })
}

export async function beehiiv(req: ProviderRequest, store: EspStore): Promise<ProviderAnswer> {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const auth = bearer ? mask('Bearer', bearer) : null
  if (bearer !== ESP_SANDBOX_KEYS.beehiiv)
    return { auth, response: beehiivError(401, 'Unauthorized', 'Unauthorized', 'unauthorized') }
  const notFound = (what: string) => ({
    auth,
    response: beehiivError(404, 'Not Found', `${what} not found`, 'not_found'),
  })
  const p = req.path
  if (req.method === 'GET' && p === '/v2/publications') return { auth, response: publications(req) }
  const pub = /^\/v2\/publications\/([^/]+)(\/.*)?$/.exec(p)
  if (!pub) return notFound('Resource')
  const publication = target('beehiiv', decodeURIComponent(pub[1]!))
  if (!publication) return notFound('Publication')
  const rest = pub[2] ?? ''
  if (req.method === 'GET' && rest === '') {
    return {
      auth,
      response: json(200, {
        data: {
          id: publication.id,
          name: publication.name,
          organization_name: 'Local sandbox',
          referral_program_enabled: false,
          created: 1735689600,
        },
      }),
    }
  }
  if (req.method === 'GET' && rest === '/subscriptions')
    return { auth, response: await listSubscriptions(req, store, publication.id) }
  if (req.method === 'POST' && rest === '/subscriptions')
    return { auth, response: await subscribe(store, publication.id, req.body) }
  const one = /^\/subscriptions\/(sub_[^/]+)$/.exec(rest)
  if (req.method === 'DELETE' && one) {
    const id = decodeURIComponent(one[1]!)
    const s = (await store.subscribers('beehiiv')).find((x) => x.target === publication.id && x.remoteId === id)
    if (!s) return notFound('Subscription')
    await store.remove('beehiiv', publication.id, s.email)
    return { auth, response: { status: 204 } }
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
