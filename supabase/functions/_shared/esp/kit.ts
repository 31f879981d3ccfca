/**
 * Kit (formerly ConvertKit) API v4 (https://developers.kit.com/api-reference/overview). Auth: the
 * `X-Kit-Api-Key` header (https://developers.kit.com/api-reference/authentication). Real base:
 * https://api.kit.com/v4. Targets are forms. Opens and clicks per subscriber come from
 * `GET /v4/subscribers/{id}/stats` (https://developers.kit.com/api-reference/subscribers/list-stats-for-a-subscriber,
 * added June 2025), by the id Kit gave the subscriber at delivery.
 */
import { field, num, removedOf, requestJson, str, confirmedAtOf, trimSlash } from './http.ts'
import type { EspClient, EspClientOptions, EspEngagement, EspFailure, EspListMember, EspTarget } from './types.ts'

export const KIT_API_URL = 'https://api.kit.com/v4'

/** Kit errors: `{ errors: ["…"] }`. */
export function kitMessage(body: unknown): string | undefined {
  const errors = field(body, 'errors')
  if (Array.isArray(errors)) {
    const messages = errors.map((e) => str(e) ?? str(field(e, 'message'))).filter(Boolean)
    if (messages.length) return messages.join('; ')
  }
  return str(field(body, 'message'))
}

const idOf = (value: unknown) => {
  const n = num(value)
  return n !== undefined ? String(n) : str(value)
}

/**
 * The referrer Kit keeps with a form subscription; Kit parses its utm_* parameters into
 * `referrer_utm_parameters`, so the source and campaign are readable in Kit.
 */
export function kitReferrer(siteUrl: string, sourceName: string, campaignName: string): string {
  const url = new URL(siteUrl)
  url.searchParams.set('utm_source', 'growletter')
  url.searchParams.set('utm_medium', sourceName)
  url.searchParams.set('utm_campaign', campaignName)
  return url.toString()
}

/**
 * Kit's 429 is the plain text "Retry later" with no Retry-After; "a wait of up to 60 seconds resets the limit"
 * (https://developers.kit.com/api-reference/rate-limits), so that is the wait a 429 without one asks for.
 */
const KIT_RATE_LIMIT_WAIT_MS = 60_000
function kitWait<T extends { ok: boolean }>(answer: T | EspFailure): T | EspFailure {
  if (!answer.ok && (answer as EspFailure).status === 429 && (answer as EspFailure).retryAfterMs === undefined) {
    return { ...(answer as EspFailure), retryAfterMs: KIT_RATE_LIMIT_WAIT_MS }
  }
  return answer
}

/** Kit's subscriber `stats` (opened, clicked) as engagement: one reading for the single and the list read. */
export function kitEngagement(stats: unknown): EspEngagement {
  const opens = num(field(stats, 'opened'))
  const clicks = num(field(stats, 'clicked'))
  return {
    ...(opens !== undefined ? { opens } : {}),
    ...(clicks !== undefined ? { clicks } : {}),
    engaged: (opens ?? 0) > 0 || (clicks ?? 0) > 0,
  }
}

const day = (date: Date) => date.toISOString().slice(0, 10)

export function kitClient(options: EspClientOptions): EspClient {
  const base = trimSlash(options.baseUrl || KIT_API_URL)
  const fetchImpl = options.fetch ?? fetch
  const site = options.siteUrl ?? 'https://growletter.com'
  const auth = (key: string) => ({ 'x-kit-api-key': key })

  // List forms: GET /forms (https://developers.kit.com/api-reference/forms/list-forms), cursor-paginated
  // (`pagination.has_next_page`, `pagination.end_cursor`, `after`).
  async function forms(key: string) {
    const targets: EspTarget[] = []
    let after: string | undefined
    for (let page = 0; page < 20; page++) {
      const query = new URLSearchParams({ status: 'active', per_page: '500', ...(after ? { after } : {}) })
      const answer = kitWait(
        await requestJson(fetchImpl, `${base}/forms?${query}`, { method: 'GET', headers: auth(key) }, kitMessage),
      )
      if (!answer.ok) return answer
      const list = field(answer.body, 'forms')
      for (const f of Array.isArray(list) ? list : []) {
        const id = idOf(field(f, 'id'))
        if (id) targets.push({ id, name: str(field(f, 'name')) ?? id })
      }
      const pagination = field(answer.body, 'pagination')
      after = str(field(pagination, 'end_cursor'))
      if (field(pagination, 'has_next_page') !== true || !after) break
    }
    return { ok: true as const, targets }
  }

  return {
    provider: 'kit',
    listTargets: forms,

    // v4 has no "get one form" endpoint: the key is good if the forms list answers, the form if it is in it.
    async testConnection(key, targetId) {
      const listed = await forms(key)
      if (!listed.ok) return listed
      const target = listed.targets.find((t) => t.id === String(targetId))
      return target
        ? { ok: true, target }
        : { ok: false, retryable: false, status: 404, message: `Kit has no active form ${targetId} for this API key` }
    },

    // Two documented steps: create the subscriber as active (POST /subscribers, `state: "active"`, which
    // upserts by email: https://developers.kit.com/api-reference/subscribers/create-a-subscriber), then add
    // them to the form with the referrer (POST /forms/{form_id}/subscribers:
    // https://developers.kit.com/api-reference/forms/add-subscriber-to-form-by-email-address). Both are
    // idempotent by email, so a retry after the first step is safe.
    async deliver(key, targetId, subscriber) {
      const confirmed = confirmedAtOf(subscriber.confirmedAt)
      if (!(confirmed instanceof Date)) return confirmed
      const created = kitWait(
        await requestJson(
          fetchImpl,
          `${base}/subscribers`,
          { method: 'POST', headers: auth(key), body: { email_address: subscriber.email, state: 'active' } },
          kitMessage,
        ),
      )
      if (!created.ok) return created
      const added = kitWait(
        await requestJson(
          fetchImpl,
          `${base}/forms/${encodeURIComponent(targetId)}/subscribers`,
          {
            method: 'POST',
            headers: auth(key),
            body: {
              email_address: subscriber.email,
              referrer: kitReferrer(site, subscriber.sourceName, subscriber.campaignName),
            },
          },
          kitMessage,
        ),
      )
      if (!added.ok) return added
      const id =
        idOf(field(field(added.body, 'subscriber'), 'id')) ?? idOf(field(field(created.body, 'subscriber'), 'id'))
      return id
        ? { ok: true, remoteId: id }
        : { ok: false, retryable: false, status: added.status, message: 'Kit answered without a subscriber id' }
    },

    // Unsubscribe subscriber: POST /subscribers/{id}/unsubscribe
    // (https://developers.kit.com/api-reference/subscribers/unsubscribe-subscriber, 204): Kit has no per-form
    // removal; the subscriber (`remoteId`, Kit's id from the delivery) is cancelled and gets no more emails.
    async remove(key, _targetId, remoteId) {
      return removedOf(
        kitWait(
          await requestJson(
            fetchImpl,
            `${base}/subscribers/${encodeURIComponent(remoteId)}/unsubscribe`,
            { method: 'POST', headers: auth(key), body: {} },
            kitMessage,
          ),
        ),
      )
    },

    // List stats for a subscriber: GET /subscribers/{id}/stats answering
    // `{ subscriber: { id, stats: { sent, opened, clicked, bounced, open_rate, click_rate, last_sent, last_opened,
    // last_clicked, … } } }`. Kit does not tell machine opens apart, so only its clicks count for pay.
    async engagement(key, _targetId, _email, remoteId) {
      if (!remoteId)
        return { ok: false, retryable: false, status: 0, message: 'Kit gave this subscriber no id to read stats by' }
      const answer = kitWait(
        await requestJson(
          fetchImpl,
          `${base}/subscribers/${encodeURIComponent(remoteId)}/stats`,
          { method: 'GET', headers: auth(key) },
          kitMessage,
        ),
      )
      if (!answer.ok) return answer
      return { ok: true, engagement: kitEngagement(field(field(answer.body, 'subscriber'), 'stats')) }
    },

    // Filter subscribers by engagement, sign-up date, state, and tags: POST /subscribers/filter
    // (https://developers.kit.com/api-reference/subscribers/filter-subscribers-by-engagement-sign-up-date-state-and-tags):
    // every condition in `all` must match; here the sign-up date (`{ type: "subscribed", after }`, from the earliest due
    // reader), `include: [{ type: "stats", range: { start, end } }]` (YYYY-MM-DD; the default is the last 90 days) for
    // each subscriber's opened/clicked, cursor paging (`pagination.has_next_page`, `end_cursor`, `after`), `per_page` up
    // to 1000. Account-wide, like the stats read (Kit addresses subscribers by account, not by form).
    async engagementList(key, _targetId, query) {
      const body = {
        all: [{ type: 'subscribed', after: day(query.since) }],
        include: [{ type: 'stats', range: { start: day(query.since), end: day(new Date(Date.now() + 86_400_000)) } }],
        per_page: Math.min(query.pageSize, 1000),
        ...(query.cursor ? { after: query.cursor } : {}),
      }
      const answer = kitWait(
        await requestJson(
          fetchImpl,
          `${base}/subscribers/filter`,
          { method: 'POST', headers: auth(key), body },
          kitMessage,
        ),
      )
      if (!answer.ok) return answer
      const list = field(answer.body, 'subscribers')
      const members: EspListMember[] = []
      for (const sub of Array.isArray(list) ? list : []) {
        const email = str(field(sub, 'email_address'))
        if (email)
          members.push({ email, remoteId: idOf(field(sub, 'id')), engagement: kitEngagement(field(sub, 'stats')) })
      }
      const pagination = field(answer.body, 'pagination')
      const after = str(field(pagination, 'end_cursor'))
      const total = num(field(pagination, 'total_count'))
      return {
        ok: true,
        page: {
          members,
          next: field(pagination, 'has_next_page') === true && after ? after : null,
          ...(total !== undefined ? { total } : {}),
        },
      }
    },
  }
}
