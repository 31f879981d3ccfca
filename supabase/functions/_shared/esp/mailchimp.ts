/**
 * Mailchimp Marketing API v3 (https://mailchimp.com/developer/marketing/api/). Auth: HTTP Basic with any
 * user name and the API key as password; the key ends in its data centre (`…-us21`), which names the real
 * base `https://us21.api.mailchimp.com/3.0` (https://mailchimp.com/developer/marketing/docs/fundamentals/).
 * Targets are audiences (lists). Members are upserted as subscribed, with the opt-in evidence Mailchimp
 * keeps (`ip_opt`, `timestamp_opt`), and tagged "Growletter" and "Growletter: <source>".
 */
import { field, num, removedOf, requestJson, str, confirmedAtOf, trimSlash } from './http.ts'
import { md5Hex } from './md5.ts'
import type { EspClient, EspClientOptions, EspEngagement, EspFailure, EspListMember, EspTarget } from './types.ts'

/** The real base for a key: its `-dc` suffix names the data centre. Undefined for a key without one. */
export function mailchimpApiUrl(key: string): string | undefined {
  const dc = /-([a-z]+\d+)$/.exec(key.trim())?.[1]
  return dc ? `https://${dc}.api.mailchimp.com/3.0` : undefined
}

/** Mailchimp's member id: the MD5 of the lower-cased address (Add or update list member, path parameter). */
export const subscriberHash = (email: string) => md5Hex(email.trim().toLowerCase())

/**
 * Mailchimp errors are problem documents: `{ type, title, status, detail, instance, errors?: [{ field, message }] }`
 * (https://mailchimp.com/developer/marketing/docs/errors/).
 */
export function mailchimpMessage(body: unknown): string | undefined {
  const detail = str(field(body, 'detail')) ?? str(field(body, 'title'))
  const errors = field(body, 'errors')
  const fields = Array.isArray(errors)
    ? errors.map((e) => [str(field(e, 'field')), str(field(e, 'message'))].filter(Boolean).join(': ')).filter(Boolean)
    : []
  return [detail, ...fields].filter(Boolean).join(' ') || undefined
}

/** `timestamp_opt` in ISO 8601 without fractions (`2026-11-25T22:03:25+00:00`). */
export const mailchimpTimestamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+00:00')

/** A member's `stats` (avg_open_rate, avg_click_rate: fractions 0..1) as engagement: one reading for both reads. */
export function mailchimpEngagement(stats: unknown): EspEngagement {
  const openRate = num(field(stats, 'avg_open_rate'))
  const clickRate = num(field(stats, 'avg_click_rate'))
  return {
    ...(openRate !== undefined ? { openRate } : {}),
    ...(clickRate !== undefined ? { clickRate } : {}),
    engaged: (openRate ?? 0) > 0 || (clickRate ?? 0) > 0,
  }
}

export function mailchimpClient(options: EspClientOptions): EspClient {
  const fetchImpl = options.fetch ?? fetch
  const baseFor = (key: string): string | EspFailure => {
    const base = options.baseUrl || mailchimpApiUrl(key)
    return base
      ? trimSlash(base)
      : {
          ok: false,
          retryable: false,
          status: 401,
          message: 'This is not a Mailchimp API key: it should end in its data centre, like -us21.',
        }
  }
  const auth = (key: string) => ({ authorization: `Basic ${btoa(`growletter:${key}`)}` })
  const member = (list: string, email: string) => `/lists/${encodeURIComponent(list)}/members/${subscriberHash(email)}`

  return {
    provider: 'mailchimp',

    // Get lists info: GET /lists (https://mailchimp.com/developer/marketing/api/lists/get-lists-info/),
    // `count` at most 1000 with `offset`, answering `{ lists: [{ id, name }], total_items }`.
    async listTargets(key) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      const targets: EspTarget[] = []
      for (let offset = 0; offset < 20_000; offset += 1000) {
        const query = new URLSearchParams({
          count: '1000',
          offset: String(offset),
          fields: 'lists.id,lists.name,total_items',
        })
        const answer = await requestJson(
          fetchImpl,
          `${base}/lists?${query}`,
          { method: 'GET', headers: auth(key) },
          mailchimpMessage,
        )
        if (!answer.ok) return answer
        const lists = field(answer.body, 'lists')
        for (const l of Array.isArray(lists) ? lists : []) {
          const id = str(field(l, 'id'))
          if (id) targets.push({ id, name: str(field(l, 'name')) ?? id })
        }
        if (offset + 1000 >= (num(field(answer.body, 'total_items')) ?? 0)) break
      }
      return { ok: true, targets }
    },

    // Get list info: GET /lists/{list_id} (https://mailchimp.com/developer/marketing/api/lists/get-list-info/).
    async testConnection(key, targetId) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      const answer = await requestJson(
        fetchImpl,
        `${base}/lists/${encodeURIComponent(targetId)}?fields=id,name`,
        { method: 'GET', headers: auth(key) },
        mailchimpMessage,
      )
      if (!answer.ok) return answer
      const id = str(field(answer.body, 'id'))
      return id
        ? { ok: true, target: { id, name: str(field(answer.body, 'name')) ?? id } }
        : { ok: false, retryable: false, status: answer.status, message: 'Mailchimp answered without an audience' }
    },

    // Add or update list member: PUT /lists/{list_id}/members/{subscriber_hash}
    // (https://mailchimp.com/developer/marketing/api/list-members/add-or-update-list-member/). Only
    // `status_if_new` is sent, never `status`: someone who unsubscribed from that audience stays unsubscribed.
    // Then the tags, with Add or remove member tags: POST …/members/{subscriber_hash}/tags
    // (https://mailchimp.com/developer/marketing/api/list-member-tags/add-or-remove-member-tags/, 204).
    // Both are idempotent, so a retry after a failed second step repeats nothing harmful.
    async deliver(key, targetId, subscriber) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      const confirmed = confirmedAtOf(subscriber.confirmedAt)
      if (!(confirmed instanceof Date)) return confirmed
      const body = {
        email_address: subscriber.email,
        status_if_new: 'subscribed',
        ...(subscriber.ip ? { ip_opt: subscriber.ip } : {}),
        timestamp_opt: mailchimpTimestamp(confirmed),
      }
      const path = member(targetId, subscriber.email)
      const put = await requestJson(
        fetchImpl,
        `${base}${path}`,
        { method: 'PUT', headers: auth(key), body },
        mailchimpMessage,
      )
      if (!put.ok) return put
      const tags = [
        { name: 'Growletter', status: 'active' },
        // Mailchimp tag names are at most 100 characters.
        { name: `Growletter: ${subscriber.sourceName}`.slice(0, 100), status: 'active' },
      ]
      const tagged = await requestJson(
        fetchImpl,
        `${base}${path}/tags`,
        { method: 'POST', headers: auth(key), body: { tags } },
        mailchimpMessage,
      )
      if (!tagged.ok) return tagged
      return { ok: true, remoteId: str(field(put.body, 'id')) ?? subscriberHash(subscriber.email) }
    },

    // Update list member: PATCH /lists/{list_id}/members/{subscriber_hash} with `status: "unsubscribed"`
    // (https://mailchimp.com/developer/marketing/api/list-members/update-list-member/): the member stays in the
    // audience's history but gets no more campaigns, the way Mailchimp wants opt-outs kept.
    async remove(key, targetId, _remoteId, email) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      return removedOf(
        await requestJson(
          fetchImpl,
          `${base}${member(targetId, email)}`,
          { method: 'PATCH', headers: auth(key), body: { status: 'unsubscribed' } },
          mailchimpMessage,
        ),
      )
    },

    // Get member info: GET /lists/{list_id}/members/{subscriber_hash}
    // (https://mailchimp.com/developer/marketing/api/list-members/get-member-info/); `stats.avg_open_rate`
    // and `stats.avg_click_rate` are fractions (0..1).
    async engagement(key, targetId, email) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      const answer = await requestJson(
        fetchImpl,
        `${base}${member(targetId, email)}?fields=stats`,
        { method: 'GET', headers: auth(key) },
        mailchimpMessage,
      )
      if (!answer.ok) return answer
      return { ok: true, engagement: mailchimpEngagement(field(answer.body, 'stats')) }
    },

    // List members info: GET /lists/{list_id}/members
    // (https://mailchimp.com/developer/marketing/api/list-members/list-members-info/): `count` up to 1000 with
    // `offset`, `since_timestamp_opt` (members who opted in after it: Growletter sends the confirmation as
    // `timestamp_opt`) and `fields` to keep the answer small; `{ members: [{ id, email_address, stats }], total_items }`.
    async engagementList(key, targetId, query) {
      const base = baseFor(key)
      if (typeof base !== 'string') return base
      const offset = Number(query.cursor ?? 0) || 0
      const params = new URLSearchParams({
        count: String(Math.min(query.pageSize, 1000)),
        offset: String(offset),
        fields: 'members.id,members.email_address,members.stats,total_items',
        since_timestamp_opt: mailchimpTimestamp(query.since),
      })
      const answer = await requestJson(
        fetchImpl,
        `${base}/lists/${encodeURIComponent(targetId)}/members?${params}`,
        { method: 'GET', headers: auth(key) },
        mailchimpMessage,
      )
      if (!answer.ok) return answer
      const list = field(answer.body, 'members')
      const members: EspListMember[] = []
      for (const m of Array.isArray(list) ? list : []) {
        const email = str(field(m, 'email_address'))
        if (email)
          members.push({ email, remoteId: str(field(m, 'id')), engagement: mailchimpEngagement(field(m, 'stats')) })
      }
      const total = num(field(answer.body, 'total_items'))
      const seen = offset + (Array.isArray(list) ? list.length : 0)
      const more = Array.isArray(list) && list.length > 0 && (total === undefined || seen < total)
      return {
        ok: true,
        page: { members, next: more ? String(seen) : null, ...(total !== undefined ? { total } : {}) },
      }
    },
  }
}
