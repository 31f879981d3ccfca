// Contract: each client's list read of engagement (engagementList, issue 39) against the local ESP sandbox, which
// answers the four tools' documented list endpoints with their pagination: every member listed once across pages,
// each with the engagement the per-subscriber read gives for it (so both paths reach the same verdict), the tool's
// request shape (page size, sign-up filter, stats), and a 429 in the middle of the list reported as the per-reader
// read reports it (retryable, with the wait the tool asked for).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { espClient, type EspListMember, type EspProvider } from '../../supabase/functions/_shared/esp/index.ts'
import { ESP_SANDBOX_KEYS, SANDBOX_TARGETS } from './common'
import { startEspSandbox, SUBSCRIBER, type EspSandbox } from '../testing/esp-sandbox'

let sandbox: EspSandbox
beforeAll(async () => {
  sandbox = await startEspSandbox()
})
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clear())

const PROVIDERS: EspProvider[] = ['beehiiv', 'kit', 'mailchimp', 'mailerlite']
const client = (p: EspProvider) => espClient(p, (name) => sandbox.env[name])
const SINCE = new Date('2026-11-01T00:00:00Z')
// A person's click, a machine-only open (the tools report totals), nothing.
const TOLD = [
  { opens: 1, clicks: 1 },
  { opens: 0, clicks: 0, machine_opens: 3 },
  { opens: 0, clicks: 0 },
  { opens: 2, clicks: 0 },
  { opens: 0, clicks: 0, machine_clicks: 1 },
]

async function deliverFive(p: EspProvider) {
  const target = SANDBOX_TARGETS[p][0]!.id
  const delivered: { email: string; remoteId: string }[] = []
  for (const [i, told] of TOLD.entries()) {
    const email = `list-${p}-${i}-${Date.now()}@example.com`
    const r = await client(p).deliver(ESP_SANDBOX_KEYS[p], target, { ...SUBSCRIBER, email })
    if (!r.ok) throw new Error(r.message)
    delivered.push({ email, remoteId: r.remoteId })
    expect((await sandbox.control('engagement', { provider: p, email, ...told })).status).toBe(200)
  }
  return { target, delivered }
}

async function readAll(p: EspProvider, target: string, pageSize: number) {
  const members: EspListMember[] = []
  let cursor: string | null = null
  let pages = 0
  for (;;) {
    const r = await client(p).engagementList!(ESP_SANDBOX_KEYS[p], target, { since: SINCE, cursor, pageSize })
    if (!r.ok) throw new Error(r.message)
    pages++
    members.push(...r.page.members)
    if (!r.page.next) return { members, pages }
    cursor = r.page.next
  }
}

describe.each(PROVIDERS)('%s list read against the sandbox', (p) => {
  it('lists every member once across pages with the engagement the per-subscriber read gives', async () => {
    const { target, delivered } = await deliverFive(p)
    const pageSize = 2
    const { members, pages } = await readAll(p, target, pageSize)
    const mine = members.filter((m) => delivered.some((d) => d.email === m.email.toLowerCase()))
    expect(mine).toHaveLength(5)
    expect(new Set(mine.map((m) => m.email)).size).toBe(5)
    expect(pages).toBeGreaterThanOrEqual(3)
    for (const d of delivered) {
      const listed = mine.find((m) => m.email.toLowerCase() === d.email)!
      expect(listed.remoteId).toBe(d.remoteId)
      const single = await client(p).engagement!(ESP_SANDBOX_KEYS[p], target, d.email, d.remoteId)
      expect(single.ok && single.engagement).toEqual(listed.engagement)
    }
    // A page is one request of the tool's list endpoint, with its own paging and filters.
    const listRequests = (await sandbox.requests(p)).filter((r) =>
      /\/members\?|\/groups\/[^/]+\/subscribers|\/subscriptions\?|\/subscribers\/filter/.test(r.path),
    )
    expect(listRequests).toHaveLength(pages)
    const first = listRequests[0]!
    if (p === 'mailchimp')
      expect(decodeURIComponent(first.path)).toBe(
        `/3.0/lists/${target}/members?count=2&offset=0&fields=members.id,members.email_address,members.stats,total_items&since_timestamp_opt=2026-11-01T00:00:00+00:00`,
      )
    if (p === 'mailerlite')
      expect(decodeURIComponent(first.path)).toBe(`/api/groups/${target}/subscribers?limit=2&filter[status]=active`)
    if (p === 'beehiiv')
      expect(decodeURIComponent(first.path)).toBe(
        `/v2/publications/${target}/subscriptions?expand[]=stats&limit=2&order_by=created&direction=desc`,
      )
    if (p === 'kit')
      expect(first).toMatchObject({
        method: 'POST',
        path: '/v4/subscribers/filter',
        body: {
          all: [{ type: 'subscribed', after: '2026-11-01' }],
          include: [{ type: 'stats', range: { start: '2026-11-01' } }],
          per_page: 2,
        },
      })
  })

  it('reports a 429 in the middle of the list as retryable, with the tool’s wait', async () => {
    const { target } = await deliverFive(p)
    const key = ESP_SANDBOX_KEYS[p]
    const page1 = await client(p).engagementList!(key, target, { since: SINCE, cursor: null, pageSize: 2 })
    expect(page1.ok && page1.page.next).toBeTruthy()
    await sandbox.control('fail', { provider: p, status: 429, count: 1, retryAfterSeconds: 30 })
    const page2 = await client(p).engagementList!(key, target, {
      since: SINCE,
      cursor: page1.ok ? page1.page.next : null,
      pageSize: 2,
    })
    expect(page2).toMatchObject({ ok: false, retryable: true, status: 429, retryAfterMs: 30_000 })
  })
})

describe('beehiiv newest first', () => {
  it('stops at the page reaching members created before `since`', async () => {
    const { target } = await deliverFive('beehiiv')
    const r = await client('beehiiv').engagementList!(ESP_SANDBOX_KEYS.beehiiv, target, {
      since: new Date(Date.now() + 60_000),
      cursor: null,
      pageSize: 2,
    })
    expect(r.ok && r.page.next).toBeNull()
  })
})
