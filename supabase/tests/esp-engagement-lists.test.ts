// Engagement read-back by list pages (issue 39: 10,000 readers at window close within the hour). When a key's list has
// more due readers than the pages a list read takes, claim_esp_engagement_lists hands the readers out together with the
// pages granted from the key's budget, and finish_esp_engagement_list records them in one call with the rule
// finish_esp_engagement applies to one read: the same decisions (a person's click charged, machine-only and opens
// where the tool cannot tell released not_engaged). A reader the complete list did not show waits as a 404 would and
// is read again one by one; a 429 mid-list pauses the key and leaves the unseen readers waiting; a list the tool
// refuses (another 4xx) goes one by one for a week; unread pages go back to the budget. Both engines (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

type ListClaim = {
  list_read_id: string
  provider: string
  target_id: string
  api_key: string
  since: string
  pages: number
  page_size: number
  readers: { id: string; email: string; remote_id: string | null }[]
}
type Finished = { state: string; read: number; missing: number; waiting: number }

let bulk: Market
let single: Market
const BULK_KEY = `ml-lists-${randomUUID()}`
const SINGLE_KEY = `ml-single-${randomUUID()}`
const KINDS = ['engaged', 'machine', 'proxy', 'rate', 'silent'] as const
// What the tool reports per kind, as finish_esp_engagement's arguments after p_engaged (and the same fields by name).
const READS: Record<(typeof KINDS)[number], Record<string, number | boolean | null>> = {
  engaged: { engaged: true, opens: 2, clicks: 1 },
  machine: { engaged: true, opens: 3, clicks: 0, machine_opens: 3, machine_clicks: 0 },
  proxy: { engaged: true, opens: 4, clicks: 0 },
  rate: { engaged: true, clicked: true },
  silent: { engaged: false, opens: 0, clicks: 0 },
}
const bulkReaders: Record<string, string> = {}
const singleReaders: Record<string, string> = {}

async function reader(market: Market, name: string) {
  const tag = randomUUID().slice(0, 8)
  const email = `${name}-${tag}@d${tag}.test`
  const s = await subscribe(email, [market.campaignId], { sourceId: market.sourceId })
  await ageSubscription(email)
  await confirm(s.tokens[0]!, email)
  return email
}

/** Delivered, then its window (14 days) closed a minute ago: confirmation, ledger and delivery moved back. */
async function atWindowClose(email: string) {
  const db = await testDb()
  await db.query(
    `update public.esp_deliveries d set status = 'delivered', delivered_at = now(), attempts = 1, locked_until = null,
       remote_id = 'ml-' || d.id from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
    [email],
  )
  const back = "interval '14 days 1 minute'"
  await db.query(`update public.newsletter_subscriptions set confirmed_at = confirmed_at - ${back} where email = $1`, [
    email,
  ])
  await db.query(
    `update public.wallet_transactions t set available_at = now() - interval '1 minute'
     from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = $1 and t.status = 'pending'`,
    [email],
  )
  await db.query(
    `update public.esp_deliveries d set delivered_at = d.delivered_at - ${back}
     from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
    [email],
  )
}

async function engagedMarket(key: string) {
  const market = await createMarket({ deposit: 200, price: 5, budget: 100 })
  await queryAs(
    market.advertiser.actor,
    "select public.save_esp_connection($1, 'mailerlite', $2, '100000000000000001', 'Group')",
    [market.campaignId, key],
  )
  await queryAs(
    market.advertiser.actor,
    "update public.campaigns set pay_rule = 'engaged', engagement_window_days = 14 where id = $1",
    [market.campaignId],
  )
  return market
}

const claimLists = async () => queryAs<ListClaim>(service, 'select * from public.claim_esp_engagement_lists(20)')
const claimOne = async () =>
  await queryAs<{ id: string; email: string }>(service, 'select id, email from public.claim_esp_engagement(100)')
const finishList = async (id: string, reads: unknown[], pages: number, complete: boolean, extra = '') =>
  (
    await queryAs<{ r: Finished }>(
      service,
      `select public.finish_esp_engagement_list($1, $2::jsonb, $3, $4${extra}) as r`,
      [id, JSON.stringify(reads), pages, complete],
    )
  )[0]!.r
const fingerprint = async (campaignId: string) =>
  (
    await (
      await testDb()
    ).query<{ fp: string }>('select key_fingerprint as fp from public.esp_connections where campaign_id = $1', [
      campaignId,
    ])
  ).rows[0]!.fp
const requestsLogged = async (fp: string) =>
  (
    await (
      await testDb()
    ).query<{ n: number }>(
      'select coalesce(sum(requests), 0)::int as n from private.esp_request_log where key_fingerprint = $1',
      [fp],
    )
  ).rows[0]!.n
const decision = async (email: string) =>
  (
    await (
      await testDb()
    ).query<{ engagement_decision: string | null; not_counted_reason: string | null }>(
      'select engagement_decision, not_counted_reason from public.newsletter_subscriptions where email = $1',
      [email],
    )
  ).rows[0]!
const settle = async () => (await queryAs<{ n: number }>(service, 'select public.settle_matured_holds() as n'))[0]!.n

beforeAll(async () => {
  bulk = await engagedMarket(BULK_KEY)
  single = await engagedMarket(SINGLE_KEY)
  // The second key's list held 10,000 members when last read: 10 pages, more than its 5 due readers: one by one.
  await (
    await testDb()
  ).query(
    `insert into private.esp_list_sizes (key_fingerprint, target_id, since, members) values ($1, '100000000000000001', '-infinity', 10000)`,
    [await fingerprint(single.campaignId)],
  )
  for (const kind of [...KINDS, 'gone']) {
    bulkReaders[kind] = await reader(bulk, kind)
    await atWindowClose(bulkReaders[kind]!)
  }
  for (const kind of KINDS) {
    singleReaders[kind] = await reader(single, kind)
    await atWindowClose(singleReaders[kind]!)
  }
})

describe('a list read instead of one request per reader', () => {
  it('is handed out when the due readers outnumber its pages, within the key’s budget, to the service role only', async () => {
    expect(await errorOf(anon, 'select * from public.claim_esp_engagement_lists(1)')).toMatch(/permission denied/)
    expect(
      await errorOf(anon, "select public.finish_esp_engagement_list(gen_random_uuid(), '[]'::jsonb, 0, true)"),
    ).toMatch(/permission denied/)
    const fp = await fingerprint(bulk.campaignId)
    const claims = (await claimLists()).filter((c) => c.api_key === BULK_KEY)
    expect(claims).toHaveLength(1)
    const c = claims[0]!
    expect(c).toMatchObject({ provider: 'mailerlite', target_id: '100000000000000001', page_size: 1000, pages: 2 })
    expect(c.readers.map((r) => r.email).sort()).toEqual(Object.values(bulkReaders).sort())
    expect(c.readers.every((r) => r.remote_id?.startsWith('ml-'))).toBe(true)
    // Two pages (the one estimated and one for members who joined meanwhile) from the key's budget.
    expect(await requestsLogged(fp)).toBe(2)
    // Its readers are not due to anything else meanwhile; the other key's five readers are few: one by one.
    const singles = await claimOne()
    expect(singles.map((r) => r.email).filter((e) => Object.values(bulkReaders).includes(e))).toEqual([])
    expect((await claimLists()).filter((x) => x.api_key === SINGLE_KEY || x.api_key === BULK_KEY)).toEqual([])
    // The per-reader path records the second newsletter's readers; the list read the first's (all but "gone",
    // deleted in the tool), in one call with the same facts.
    for (const kind of KINDS) {
      const id = singles.find((r) => r.email === singleReaders[kind])!.id
      const f = READS[kind]
      await queryAs(service, 'select public.finish_esp_engagement($1, $2, $3, $4, null, null, null, $5, $6, $7)', [
        id,
        f.engaged,
        f.opens ?? null,
        f.clicks ?? null,
        f.machine_opens ?? null,
        f.machine_clicks ?? null,
        f.clicked ?? null,
      ])
    }
    expect(
      await errorOf(service, "select public.finish_esp_engagement_list($1, '{}'::jsonb, 1, true)", [c.list_read_id]),
    ).toBe(
      'p_reads must be a JSON array of reads ({id, engaged, opens, clicks, machine_opens, machine_clicks, clicked})',
    )
    const reads = KINDS.map((kind) => ({
      id: c.readers.find((r) => r.email === bulkReaders[kind])!.id,
      ...READS[kind],
    }))
    expect(await finishList(c.list_read_id, reads, 1, true, ', 5')).toEqual({
      state: 'finished',
      read: 5,
      missing: 1,
      waiting: 0,
    })
    // The unread page went back to the budget; a second finish finds nothing to do.
    expect(await requestsLogged(fp)).toBe(1)
    expect((await finishList(c.list_read_id, reads, 1, true)).state).toBe('missing')
  })

  it('gives every reader the decision the per-reader read gives', async () => {
    await settle()
    for (const kind of KINDS) expect(await decision(bulkReaders[kind]!)).toEqual(await decision(singleReaders[kind]!))
    expect(await decision(bulkReaders.engaged!)).toEqual({ engagement_decision: 'engaged', not_counted_reason: null })
    expect(await decision(bulkReaders.rate!)).toEqual({ engagement_decision: 'engaged', not_counted_reason: null })
    for (const kind of ['machine', 'proxy', 'silent'])
      expect(await decision(bulkReaders[kind]!)).toEqual({
        engagement_decision: 'not_engaged',
        not_counted_reason: 'not_engaged',
      })
    expect(await ledgerMismatches()).toEqual([])
  })

  it('leaves a reader the list did not show waiting, then reads it alone, and the bound decides it', async () => {
    const gone = bulkReaders.gone!
    expect(await decision(gone)).toEqual({ engagement_decision: null, not_counted_reason: null })
    // Waits 6 hours as a per-reader 404 would.
    expect((await claimOne()).map((r) => r.email)).not.toContain(gone)
    const db = await testDb()
    await db.query(
      `update public.esp_deliveries d set engagement_retry_at = now() - interval '1 second'
       from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
      [gone],
    )
    // Now alone for its list (one reader, one page): read one by one, and the tool answers 404 again.
    expect((await claimLists()).filter((c) => c.api_key === BULK_KEY)).toEqual([])
    const one = (await claimOne()).find((r) => r.email === gone)!
    expect(
      (
        await queryAs<{ r: string }>(
          service,
          "select public.finish_esp_engagement($1, false, null, null, 404, 'Resource not found.') as r",
          [one.id],
        )
      )[0]!.r,
    ).toBe('waiting')
    // Past the wait's bound (72 hours after the window) without an answer: decided as the rule says.
    await db.query(
      `update public.newsletter_subscriptions set confirmed_at = confirmed_at - interval '73 hours' where email = $1`,
      [gone],
    )
    // (settlement looked at it again every 5 minutes meanwhile)
    await db.query(
      `update public.wallet_transactions t set available_at = now() - interval '1 minute'
       from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = $1 and t.status = 'pending'`,
      [gone],
    )
    await settle()
    expect((await decision(gone)).engagement_decision).toBe('unverified')
    expect(await ledgerMismatches()).toEqual([])
  })
})

describe('a list read cut short', () => {
  const more: string[] = []
  beforeAll(async () => {
    for (const kind of ['a', 'b', 'c']) {
      const email = await reader(bulk, `late-${kind}`)
      await atWindowClose(email)
      more.push(email)
    }
  })

  it('by a 429 mid-list records the pages read, pauses the key and leaves the rest waiting Retry-After', async () => {
    const fp = await fingerprint(bulk.campaignId)
    await (await testDb()).query('delete from private.esp_request_log where key_fingerprint = $1', [fp])
    const c = (await claimLists()).find((x) => x.api_key === BULK_KEY)!
    expect(c.readers.map((r) => r.email).sort()).toEqual([...more].sort())
    const first = c.readers.find((r) => r.email === more[0])!
    const r = await finishList(
      c.list_read_id,
      [{ id: first.id, engaged: true, opens: 1, clicks: 1 }],
      2,
      false,
      ", null, 429, 'Too Many Attempts.', 30000",
    )
    expect(r).toEqual({ state: 'finished', read: 1, missing: 0, waiting: 2 })
    const db = await testDb()
    const paused = await db.query<{ s: number }>(
      'select extract(epoch from paused_until - now())::int as s from private.esp_key_pauses where key_fingerprint = $1',
      [fp],
    )
    expect(paused.rows[0]!.s).toBeGreaterThan(25)
    expect(paused.rows[0]!.s).toBeLessThanOrEqual(30)
    expect((await claimLists()).filter((x) => x.api_key === BULK_KEY)).toEqual([])
    expect((await claimOne()).filter((x) => more.includes(x.email))).toEqual([])
    const checked = await db.query<{ email: string; counted: boolean | null; waits: boolean }>(
      `select s.email, d.counted_engagement as counted, coalesce(d.engagement_retry_at > now(), false) as waits
       from public.esp_deliveries d join public.newsletter_subscriptions s on s.id = d.subscription_id
       where s.email = any($1) order by s.email`,
      [more],
    )
    expect(checked.rows.find((x) => x.email === more[0])).toMatchObject({ counted: true, waits: false })
    expect(checked.rows.filter((x) => x.email !== more[0]).every((x) => x.waits && !x.counted)).toBe(true)
  })

  it('by the run’s pages or time leaves the unseen readers due at once', async () => {
    const db = await testDb()
    const fp = await fingerprint(bulk.campaignId)
    await db.query('delete from private.esp_key_pauses where key_fingerprint = $1', [fp])
    await db.query(
      `update public.esp_deliveries d set engagement_retry_at = null from public.newsletter_subscriptions s
       where s.id = d.subscription_id and s.email = any($1)`,
      [more.slice(1)],
    )
    // Two due readers of a list of one page: a list read (one page against two requests).
    const c = (await claimLists()).find((x) => x.api_key === BULK_KEY)!
    expect(c.readers.map((r) => r.email).sort()).toEqual(more.slice(1).sort())
    expect(await finishList(c.list_read_id, [], 1, false)).toEqual({
      state: 'finished',
      read: 0,
      missing: 0,
      waiting: 2,
    })
    const again = (await claimLists()).find((x) => x.api_key === BULK_KEY)!
    expect(again.readers.map((r) => r.email).sort()).toEqual(more.slice(1).sort())
    expect(await finishList(again.list_read_id, [], 0, false)).toMatchObject({ waiting: 2 })
  })

  it('by the tool refusing the list read itself sends its readers one by one at once, and that list for a week', async () => {
    // A 400 (an unknown list, or a request body the tool no longer takes): listing again in 6 hours would fail the same
    // way until the wait's bound charged every reader unverified; the per-reader read still works.
    const c = (await claimLists()).find((x) => x.api_key === BULK_KEY)!
    expect(c.readers.map((r) => r.email).sort()).toEqual(more.slice(1).sort())
    expect(
      await finishList(c.list_read_id, [], 1, false, ", null, 400, 'Invalid filter: unknown condition type', null"),
    ).toMatchObject({ read: 0, waiting: 2 })
    expect((await claimLists()).filter((x) => x.api_key === BULK_KEY)).toEqual([])
    expect(
      (await claimOne())
        .filter((x) => more.includes(x.email))
        .map((x) => x.email)
        .sort(),
    ).toEqual(more.slice(1).sort())
    const refusal = await (
      await testDb()
    ).query<{ days: number; response_status: number }>(
      `select round(extract(epoch from refused_until - now()) / 86400)::int as days, response_status
       from private.esp_list_read_refusals where key_fingerprint = $1`,
      [await fingerprint(bulk.campaignId)],
    )
    expect(refusal.rows).toEqual([{ days: 7, response_status: 400 }])
  })
})
