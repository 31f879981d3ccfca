/**
 * beehiiv API v2 (https://developers.beehiiv.com/api-reference). Auth: `Authorization: Bearer <api key>`
 * (https://developers.beehiiv.com/welcome/create-an-api-key). Real base: https://api.beehiiv.com/v2.
 * Targets are publications; the subscriber is created as already confirmed (`double_opt_override: "off"`:
 * the reader confirmed on Growletter) with the UTM fields beehiiv keeps naming Growletter and the source.
 */
import { field, num, removedOf, requestJson, str, confirmedAtOf, trimSlash } from './http.ts'
import type { EspClient, EspClientOptions, EspEngagement, EspListMember, EspTarget } from './types.ts'

export const BEEHIIV_API_URL = 'https://api.beehiiv.com/v2'

/** beehiiv errors: `{ status, statusText, errors: [{ message, code }] }`. */
export function beehiivMessage(body: unknown): string | undefined {
  const errors = field(body, 'errors')
  if (Array.isArray(errors)) {
    const messages = errors.map((e) => str(field(e, 'message')) ?? str(e)).filter(Boolean)
    if (messages.length) return messages.join('; ')
  }
  return str(field(body, 'message')) ?? str(field(body, 'statusText'))
}

const publication = (p: unknown): EspTarget | null => {
  const id = str(field(p, 'id'))
  return id ? { id, name: str(field(p, 'name')) ?? id } : null
}

/** A subscription's `stats` (open_rate, click_through_rate: percentages 0..100) as engagement, for both reads. */
export function beehiivEngagement(stats: unknown): EspEngagement {
  const open = num(field(stats, 'open_rate'))
  const click = num(field(stats, 'click_through_rate'))
  return {
    ...(open !== undefined ? { openRate: open / 100 } : {}),
    ...(click !== undefined ? { clickRate: click / 100 } : {}),
    engaged: (open ?? 0) > 0 || (click ?? 0) > 0,
  }
}

export function beehiivClient(options: EspClientOptions): EspClient {
  const base = trimSlash(options.baseUrl || BEEHIIV_API_URL)
  const fetchImpl = options.fetch ?? fetch
  const site = options.siteUrl ?? 'https://growletter.com'
  const auth = (key: string) => ({ authorization: `Bearer ${key}` })

  return {
    provider: 'beehiiv',

    // List publications: GET /publications (https://developers.beehiiv.com/api-reference/publications/index),
    // paginated with `page`/`limit` (at most 100), answering `{ data, page, total_pages }`.
    async listTargets(key) {
      const targets: EspTarget[] = []
      for (let page = 1; page <= 20; page++) {
        const answer = await requestJson(
          fetchImpl,
          `${base}/publications?limit=100&page=${page}`,
          { method: 'GET', headers: auth(key) },
          beehiivMessage,
        )
        if (!answer.ok) return answer
        const data = field(answer.body, 'data')
        for (const p of Array.isArray(data) ? data : []) {
          const t = publication(p)
          if (t) targets.push(t)
        }
        if (page >= (num(field(answer.body, 'total_pages')) ?? 1)) break
      }
      return { ok: true, targets }
    },

    // Get publication: GET /publications/{publicationId} (https://developers.beehiiv.com/api-reference/publications/show).
    async testConnection(key, targetId) {
      const answer = await requestJson(
        fetchImpl,
        `${base}/publications/${encodeURIComponent(targetId)}`,
        { method: 'GET', headers: auth(key) },
        beehiivMessage,
      )
      if (!answer.ok) return answer
      const target = publication(field(answer.body, 'data'))
      return target
        ? { ok: true, target }
        : { ok: false, retryable: false, status: answer.status, message: 'beehiiv answered without a publication' }
    },

    // Create subscription: POST /publications/{publicationId}/subscriptions
    // (https://developers.beehiiv.com/api-reference/subscriptions/create). `double_opt_override: "off"` skips
    // the publication's double opt-in; `reactivate_existing: false` leaves someone who unsubscribed there alone.
    async deliver(key, targetId, subscriber) {
      const confirmed = confirmedAtOf(subscriber.confirmedAt)
      if (!(confirmed instanceof Date)) return confirmed
      const body = {
        email: subscriber.email,
        reactivate_existing: false,
        double_opt_override: 'off',
        utm_source: 'Growletter',
        utm_medium: subscriber.sourceName,
        utm_campaign: subscriber.campaignName,
        referring_site: site,
      }
      const answer = await requestJson(
        fetchImpl,
        `${base}/publications/${encodeURIComponent(targetId)}/subscriptions`,
        { method: 'POST', headers: auth(key), body },
        beehiivMessage,
      )
      if (!answer.ok) return answer
      const id = str(field(field(answer.body, 'data'), 'id'))
      return id
        ? { ok: true, remoteId: id }
        : { ok: false, retryable: false, status: answer.status, message: 'beehiiv answered without a subscription id' }
    },

    // Delete subscription: DELETE /publications/{publicationId}/subscriptions/{subscriptionId}
    // (https://developers.beehiiv.com/api-reference/subscriptions/delete); `remoteId` is the `sub_…` id beehiiv gave
    // at delivery. The subscription leaves the publication; beehiiv answers 204.
    async remove(key, targetId, remoteId) {
      return removedOf(
        await requestJson(
          fetchImpl,
          `${base}/publications/${encodeURIComponent(targetId)}/subscriptions/${encodeURIComponent(remoteId)}`,
          { method: 'DELETE', headers: auth(key) },
          beehiivMessage,
        ),
      )
    },

    // Get subscription by email with stats: GET /publications/{publicationId}/subscriptions/by_email/{email}?expand[]=stats
    // (https://developers.beehiiv.com/api-reference/subscriptions/get-by-email). `stats.open_rate` and
    // `stats.click_through_rate` are percentages (0..100).
    async engagement(key, targetId, email) {
      const answer = await requestJson(
        fetchImpl,
        `${base}/publications/${encodeURIComponent(targetId)}/subscriptions/by_email/${encodeURIComponent(email)}?expand[]=stats`,
        { method: 'GET', headers: auth(key) },
        beehiivMessage,
      )
      if (!answer.ok) return answer
      return { ok: true, engagement: beehiivEngagement(field(field(answer.body, 'data'), 'stats')) }
    },

    // List subscriptions: GET /publications/{publicationId}/subscriptions?expand[]=stats
    // (https://developers.beehiiv.com/api-reference/subscriptions/index): `limit` 1..100, cursor paging (`cursor`;
    // the answer's `next_cursor` and `has_more`, https://developers.beehiiv.com/welcome/pagination), newest first with
    // `order_by=created&direction=desc`, so the read stops at the first page reaching members created before `since`.
    async engagementList(key, targetId, query) {
      const params = new URLSearchParams({
        'expand[]': 'stats',
        limit: String(Math.min(query.pageSize, 100)),
        order_by: 'created',
        direction: 'desc',
      })
      if (query.cursor) params.set('cursor', query.cursor)
      const answer = await requestJson(
        fetchImpl,
        `${base}/publications/${encodeURIComponent(targetId)}/subscriptions?${params}`,
        { method: 'GET', headers: auth(key) },
        beehiivMessage,
      )
      if (!answer.ok) return answer
      const data = field(answer.body, 'data')
      const members: EspListMember[] = []
      let older = false
      const since = query.since.getTime() / 1000
      for (const d of Array.isArray(data) ? data : []) {
        const email = str(field(d, 'email'))
        const created = num(field(d, 'created'))
        if (created !== undefined && created < since) older = true
        if (email)
          members.push({ email, remoteId: str(field(d, 'id')), engagement: beehiivEngagement(field(d, 'stats')) })
      }
      const pagination = field(answer.body, 'pagination')
      const cursor = str(field(answer.body, 'next_cursor')) ?? str(field(pagination, 'next_cursor'))
      const more = (field(answer.body, 'has_more') ?? field(pagination, 'has_more')) === true
      const total = num(field(answer.body, 'total_results'))
      return {
        ok: true,
        page: { members, next: more && cursor && !older ? cursor : null, ...(total !== undefined ? { total } : {}) },
      }
    },
  }
}
