/**
 * MailerLite API (the current one at connect.mailerlite.com, https://developers.mailerlite.com/docs/).
 * Auth: `Authorization: Bearer <token>` (https://developers.mailerlite.com/docs/#authentication). Real base:
 * https://connect.mailerlite.com/api. Targets are groups; subscribers are upserted as active with the
 * opt-in evidence MailerLite keeps (`opted_in_at`, `optin_ip`).
 */
import { field, num, removedOf, requestJson, str, confirmedAtOf, trimSlash } from './http.ts'
import type { EspClient, EspClientOptions, EspEngagement, EspListMember, EspTarget } from './types.ts'

export const MAILERLITE_API_URL = 'https://connect.mailerlite.com/api'

/**
 * MailerLite errors: `{ message }`, with `errors: { field: ["…"] }` on validation (422)
 * (https://developers.mailerlite.com/docs/#validation-errors). The field messages say more than the summary.
 */
export function mailerliteMessage(body: unknown): string | undefined {
  const errors = field(body, 'errors')
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    const messages = Object.values(errors as Record<string, unknown>)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .map(str)
      .filter(Boolean)
    if (messages.length) return messages.join(' ')
  }
  return str(field(body, 'message'))
}

/** MailerLite's documented date format for `opted_in_at`/`subscribed_at`: `yyyy-MM-dd HH:mm:ss` (UTC here). */
export const mailerliteTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ')

/** A subscriber's `opens_count` and `clicks_count` as engagement: one reading for the single and the list read. */
export function mailerliteEngagement(data: unknown): EspEngagement {
  const opens = num(field(data, 'opens_count'))
  const clicks = num(field(data, 'clicks_count'))
  return {
    ...(opens !== undefined ? { opens } : {}),
    ...(clicks !== undefined ? { clicks } : {}),
    engaged: (opens ?? 0) > 0 || (clicks ?? 0) > 0,
  }
}

const idText = (value: unknown) => str(value) ?? (num(value) !== undefined ? String(value) : undefined)

export function mailerliteClient(options: EspClientOptions): EspClient {
  const base = trimSlash(options.baseUrl || MAILERLITE_API_URL)
  const fetchImpl = options.fetch ?? fetch
  const auth = (key: string) => ({ authorization: `Bearer ${key}` })

  // List all groups: GET /groups (https://developers.mailerlite.com/docs/groups.html#list-all-groups),
  // paginated with `limit`/`page`, answering `{ data: [{ id, name }], meta: { last_page } }`.
  async function groups(key: string) {
    const targets: EspTarget[] = []
    for (let page = 1; page <= 40; page++) {
      const answer = await requestJson(
        fetchImpl,
        `${base}/groups?limit=250&page=${page}`,
        { method: 'GET', headers: auth(key) },
        mailerliteMessage,
      )
      if (!answer.ok) return answer
      const data = field(answer.body, 'data')
      for (const g of Array.isArray(data) ? data : []) {
        const id = str(field(g, 'id')) ?? (num(field(g, 'id')) !== undefined ? String(field(g, 'id')) : undefined)
        if (id) targets.push({ id, name: str(field(g, 'name')) ?? id })
      }
      if (page >= (num(field(field(answer.body, 'meta'), 'last_page')) ?? 1)) break
    }
    return { ok: true as const, targets }
  }

  return {
    provider: 'mailerlite',
    listTargets: groups,

    // The groups API has no "get one group": the key is good if the list answers, the group if it is in it.
    async testConnection(key, targetId) {
      const listed = await groups(key)
      if (!listed.ok) return listed
      const target = listed.targets.find((t) => t.id === String(targetId))
      return target
        ? { ok: true, target }
        : {
            ok: false,
            retryable: false,
            status: 404,
            message: `MailerLite has no group ${targetId} for this API token`,
          }
    },

    // Create/upsert subscriber: POST /subscribers
    // (https://developers.mailerlite.com/docs/subscribers.html#create-upsert-subscriber), 201 new / 200 updated,
    // answering `{ data: { id, … } }`. `groups` adds to the group without removing others.
    async deliver(key, targetId, subscriber) {
      const confirmed = confirmedAtOf(subscriber.confirmedAt)
      if (!(confirmed instanceof Date)) return confirmed
      const body = {
        email: subscriber.email,
        groups: [String(targetId)],
        status: 'active',
        opted_in_at: mailerliteTime(confirmed),
        ...(subscriber.ip ? { optin_ip: subscriber.ip } : {}),
      }
      const answer = await requestJson(
        fetchImpl,
        `${base}/subscribers`,
        { method: 'POST', headers: auth(key), body },
        mailerliteMessage,
      )
      if (!answer.ok) return answer
      const data = field(answer.body, 'data')
      const id =
        str(field(data, 'id')) ?? (num(field(data, 'id')) !== undefined ? String(field(data, 'id')) : undefined)
      return id
        ? { ok: true, remoteId: id }
        : { ok: false, retryable: false, status: answer.status, message: 'MailerLite answered without a subscriber id' }
    },

    // Unassign subscriber from a group: DELETE /subscribers/{subscriber_id}/groups/{group_id}
    // (https://developers.mailerlite.com/docs/groups.html#unassign-subscriber-from-a-group, 204): the reader leaves
    // the group Growletter delivered into; the rest of the advertiser's account is theirs and is left alone.
    async remove(key, targetId, remoteId) {
      return removedOf(
        await requestJson(
          fetchImpl,
          `${base}/subscribers/${encodeURIComponent(remoteId)}/groups/${encodeURIComponent(targetId)}`,
          { method: 'DELETE', headers: auth(key) },
          mailerliteMessage,
        ),
      )
    },

    // Fetch a subscriber: GET /subscribers/{id or email}
    // (https://developers.mailerlite.com/docs/subscribers.html#fetch-a-subscriber): `opens_count`, `clicks_count`.
    async engagement(key, _targetId, email) {
      const answer = await requestJson(
        fetchImpl,
        `${base}/subscribers/${encodeURIComponent(email)}`,
        { method: 'GET', headers: auth(key) },
        mailerliteMessage,
      )
      if (!answer.ok) return answer
      return { ok: true, engagement: mailerliteEngagement(field(answer.body, 'data')) }
    },

    // Get subscribers belonging to a group: GET /groups/{group_id}/subscribers
    // (https://developers.mailerlite.com/docs/groups.html#get-subscribers-belonging-to-a-group), `limit` up to 1000,
    // `cursor` paging (`meta.next_cursor`), `filter[status]=active`; each subscriber with `opens_count`, `clicks_count`,
    // `open_rate`, `click_rate`. No sign-up filter here: the whole group is listed (its size is what the database keeps).
    async engagementList(key, targetId, query) {
      const params = new URLSearchParams({ limit: String(Math.min(query.pageSize, 1000)), 'filter[status]': 'active' })
      if (query.cursor) params.set('cursor', query.cursor)
      const answer = await requestJson(
        fetchImpl,
        `${base}/groups/${encodeURIComponent(targetId)}/subscribers?${params}`,
        { method: 'GET', headers: auth(key) },
        mailerliteMessage,
      )
      if (!answer.ok) return answer
      const data = field(answer.body, 'data')
      const members: EspListMember[] = []
      for (const d of Array.isArray(data) ? data : []) {
        const email = str(field(d, 'email'))
        if (email) members.push({ email, remoteId: idText(field(d, 'id')), engagement: mailerliteEngagement(d) })
      }
      return { ok: true, page: { members, next: str(field(field(answer.body, 'meta'), 'next_cursor')) ?? null } }
    },
  }
}
