// Engagement-verified pay (issue 39; PRODUCT "Pay for readers who read"). A newsletter pays per engaged reader only
// with a connected email tool and a window of 7 to 30 days (the form's rules, again in the database); the rule is
// recorded on each subscription when it is made, so a change applies to new subscribers; the hold lasts the window;
// then settlement charges a reader with a counted open or click and releases the rest with the reason not_engaged
// (advertiser not charged, publisher not paid), waits a bounded time for a tool that has not answered, and does it
// once. subscriber_evidence shows the row to the advertiser, the publisher and admins, and to nobody else. Both
// engines (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser, ledgerMismatches, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, walletOf, type Market } from './helpers/market'

let m: Market
let rival: NewUser
let admin: NewUser
const KEY = `ml-engaged-${randomUUID()}`

/** A reader of their own email domain (the per-domain limit on paid readers stays out of the way). */
async function reader(name: string) {
  const tag = randomUUID().slice(0, 8)
  const email = `${name}-${tag}@d${tag}.test`
  const s = await subscribe(email, [m.campaignId], { sourceId: m.sourceId })
  await ageSubscription(email)
  expect(await confirm(s.tokens[0]!, email)).toMatchObject({
    result: 'confirmed',
    not_counted_reason: null,
    counted: true,
  })
  return email
}

const subscription = async (email: string) =>
  (
    await (
      await testDb()
    ).query<{
      id: string
      pay_rule: string
      engagement_window_days: number | null
      counted: boolean
      not_counted_reason: string | null
      engagement_decision: string | null
      held_days: number
    }>(
      `select s.id, s.pay_rule, s.engagement_window_days, s.counted, s.not_counted_reason, s.engagement_decision,
         round(extract(epoch from (select t.available_at from public.wallet_transactions t
           where t.subscription_id = s.id and t.type = 'hold')) / 86400 - extract(epoch from s.confirmed_at) / 86400)::int as held_days
       from public.newsletter_subscriptions s where s.email = $1`,
      [email],
    )
  ).rows[0]!

/** deliver-esp delivered it, and (with `read`) read it back now as the tool answered. */
async function delivered(email: string) {
  await (
    await testDb()
  ).query(
    `update public.esp_deliveries d set status = 'delivered', delivered_at = now(), attempts = 1, locked_until = null
     from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
    [email],
  )
}
async function read(email: string, args: string) {
  const db = await testDb()
  const id = (
    await db.query<{ id: string }>(
      `update public.esp_deliveries d set engagement_locked_until = now() + interval '2 minutes'
       from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1 returning d.id`,
      [email],
    )
  ).rows[0]!.id
  const r = await queryAs<{ r: string }>(service, `select public.finish_esp_engagement($1, ${args}) as r`, [id])
  expect(r[0]!.r).toBe('read')
}

/** Moves a reader `days` into the past: confirmation, its ledger rows' dates, its delivery and reads. */
async function age(email: string, days: number) {
  const db = await testDb()
  await db.query(
    `update public.newsletter_subscriptions set confirmed_at = confirmed_at - ($2::float8 * interval '1 day') where email = $1`,
    [email, days],
  )
  await db.query(
    `update public.wallet_transactions t set available_at = t.available_at - ($2::float8 * interval '1 day')
     from public.newsletter_subscriptions s where s.id = t.subscription_id and s.email = $1 and t.status = 'pending'`,
    [email, days],
  )
  await db.query(
    `update public.esp_deliveries d set delivered_at = d.delivered_at - ($2::float8 * interval '1 day'),
       engagement_checked_at = d.engagement_checked_at - ($2::float8 * interval '1 day')
     from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
    [email, days],
  )
}

const settle = async () => (await queryAs<{ n: number }>(service, 'select public.settle_matured_holds() as n'))[0]!.n

const ledgerOf = async (email: string) =>
  (
    await (
      await testDb()
    ).query<{ type: string; status: string; amount: string }>(
      `select t.type, t.status, t.amount::text from public.wallet_transactions t
       join public.newsletter_subscriptions s on s.id = t.subscription_id where s.email = $1 order by t.type, t.status`,
      [email],
    )
  ).rows

const evidence = async (actor: NewUser['actor'] | typeof service, email: string) =>
  (
    await queryAs<{ e: Record<string, unknown> }>(actor, 'select public.subscriber_evidence($1) as e', [
      (await subscription(email)).id,
    ])
  )[0]!.e

const readers: Record<string, string> = {}

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 5, budget: 100 })
  rival = await createUser('advertiser')
  admin = await createUser('admin')
})

describe('choosing the rule', () => {
  it('needs a connected email tool and a window of 7 to 30 days, in words', async () => {
    const set = (rule: string, days = 14, actor = m.advertiser.actor) =>
      errorOf(actor, 'update public.campaigns set pay_rule = $2, engagement_window_days = $3 where id = $1', [
        m.campaignId,
        rule,
        days,
      ])
    expect(await set('engaged')).toMatch(/Connect your email tool first/)
    await queryAs(
      m.advertiser.actor,
      "select public.save_esp_connection($1, 'mailerlite', $2, '100000000000000001', 'Group')",
      [m.campaignId, KEY],
    )
    expect(await set('engaged', 6)).toBe('Choose an engagement window of 7 to 30 days')
    expect(await set('engaged', 31)).toBe('Choose an engagement window of 7 to 30 days')
    expect(await set('always')).toBe('Choose to pay per confirmed reader or per engaged reader')
    // Before the switch: a reader made under today's rule keeps it.
    readers.confirmed = await reader('confirmed')
    expect(await set('engaged', 10)).toBe('')
    // Only its owner changes it (row-level security: no row for anyone else).
    await queryAs(rival.actor, "update public.campaigns set pay_rule = 'confirmed' where id = $1", [m.campaignId])
    const row = await queryAs<{ pay_rule: string; engagement_window_days: number }>(
      service,
      'select pay_rule, engagement_window_days from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(row).toEqual([{ pay_rule: 'engaged', engagement_window_days: 10 }])
    expect(await errorOf(m.advertiser.actor, 'select public.disconnect_esp($1)', [m.campaignId])).toBe(
      'This newsletter pays per engaged reader, which needs your email tool: switch it to pay per confirmed reader first',
    )
  })

  it('is recorded on each subscription when made, and the hold lasts the window', async () => {
    for (const name of ['engaged', 'machine', 'proxy', 'rate', 'silent', 'unread', 'outage'])
      readers[name] = await reader(name)
    expect(await subscription(readers.confirmed!)).toMatchObject({
      pay_rule: 'confirmed',
      engagement_window_days: null,
      held_days: 7,
    })
    expect(await subscription(readers.engaged!)).toMatchObject({
      pay_rule: 'engaged',
      engagement_window_days: 10,
      held_days: 10,
    })
  })
})

describe('settling at the window’s close', () => {
  it('reads each undecided reader once more after the window closed, and not before', async () => {
    for (const [name, email] of Object.entries(readers)) if (name !== 'unread') await delivered(email)
    const claim = async () =>
      (await queryAs<{ email: string }>(service, 'select email from public.claim_esp_engagement(100)')).map(
        (r) => r.email,
      )
    // Read during the window (6 hours after the delivery): the silent reader answers "nothing yet".
    await age(readers.silent!, 0.5)
    expect(await claim()).toContain(readers.silent)
    await read(readers.silent!, 'false, 0, 0')
    for (const email of Object.values(readers)) await age(email, 10.05)
    const due = await claim()
    // The confirmed-rule reader's 7 days are over and nothing waits for it; the engaged-rule ones get a final read.
    expect(due).not.toContain(readers.confirmed)
    expect(due).toEqual(expect.arrayContaining([readers.engaged, readers.machine, readers.silent, readers.outage]))
    await (await testDb()).query('update public.esp_deliveries set engagement_locked_until = null')
  })

  it('charges a counted open or click, releases machine-only readers as not_engaged, and waits for silent tools', async () => {
    const before = await walletOf(m.advertiser.id)
    // A person clicked. A privacy proxy opened three times (the tool tells machines apart). A tool that cannot tell
    // reported four opens and no click: opens do not count. A tool reporting rates saw a click.
    await read(readers.engaged!, 'true, 2, 1')
    await read(readers.machine!, 'true, 3, 0, null, null, null, 3, 0')
    await read(readers.proxy!, 'true, 4, 0')
    await read(readers.rate!, 'true, null, null, null, null, null, null, null, true')
    // The silent reader's tool answered only during the window; the outage reader's only before, and not since.
    expect(await settle()).toBeGreaterThanOrEqual(4)

    expect(await subscription(readers.engaged!)).toMatchObject({ counted: true, engagement_decision: 'engaged' })
    expect(await subscription(readers.rate!)).toMatchObject({ counted: true, engagement_decision: 'engaged' })
    for (const name of ['machine', 'proxy'])
      expect(await subscription(readers[name]!)).toMatchObject({
        counted: false,
        not_counted_reason: 'not_engaged',
        engagement_decision: 'not_engaged',
      })
    expect(await ledgerOf(readers.machine!)).toEqual([
      { type: 'earning', status: 'canceled', amount: '4.00' },
      { type: 'hold', status: 'canceled', amount: '-5.00' },
      { type: 'release', status: 'completed', amount: '0.00' },
    ])
    expect(await ledgerOf(readers.engaged!)).toEqual([
      { type: 'debit', status: 'completed', amount: '-5.00' },
      { type: 'earning', status: 'completed', amount: '4.00' },
      { type: 'hold', status: 'canceled', amount: '-5.00' },
    ])
    // The confirmed-rule reader beside them: charged after its 7 days, as today.
    expect(await subscription(readers.confirmed!)).toMatchObject({ counted: true, engagement_decision: null })
    expect((await ledgerOf(readers.confirmed!))[0]).toEqual({ type: 'debit', status: 'completed', amount: '-5.00' })
    // Silent, unread and outage wait: their rows look again in 5 minutes, nothing is recorded as a failure.
    for (const name of ['silent', 'unread', 'outage'])
      expect(await subscription(readers[name]!)).toMatchObject({ counted: true, engagement_decision: null })
    const failures = await (
      await testDb()
    ).query(
      'select 1 from public.settlement_failures f join public.newsletter_subscriptions s on s.id = f.subscription_id where s.campaign_id = $1',
      [m.campaignId],
    )
    expect(failures.rows).toEqual([])

    // The advertiser paid for three readers (engaged, rate, confirmed); the two released cost nothing.
    const after = await walletOf(m.advertiser.id)
    expect(Number(before.balance) - Number(after.balance)).toBe(15)
    expect(Number(after.held)).toBe(15)
    expect(await ledgerMismatches()).toEqual([])
    const campaign = await queryAs<{ budget_spent: string }>(
      service,
      'select budget_spent::text from public.campaigns where id = $1',
      [m.campaignId],
    )
    expect(campaign[0]!.budget_spent).toBe('30.00') // 3 charged + 3 still held
    // Once: a second run decides nothing again.
    expect(await settle()).toBe(0)
    expect(await ledgerOf(readers.machine!)).toHaveLength(3)
  })

  it('decides the waiting ones when the tool answers, or on what it has once the bound has passed', async () => {
    // The silent reader's tool answers now: nothing counted, released.
    await read(readers.silent!, 'false, 0, 0')
    await (
      await testDb()
    ).query(
      `update public.wallet_transactions t set available_at = now() from public.newsletter_subscriptions s
       where s.id = t.subscription_id and s.campaign_id = $1 and t.status = 'pending'`,
      [m.campaignId],
    )
    await settle()
    expect(await subscription(readers.silent!)).toMatchObject({ not_counted_reason: 'not_engaged' })
    expect(await subscription(readers.outage!)).toMatchObject({ counted: true, engagement_decision: null })
    // 72 hours after the window: the outage reader's tool answered once in the window (no click): released; the
    // reader the tool never answered for (never delivered) is charged as a confirmed reader.
    await read(readers.outage!, 'false, 0, 0')
    for (const name of ['outage', 'unread']) await age(readers[name]!, 3.1)
    await (
      await testDb()
    ).query(
      `update public.esp_deliveries d set engagement_checked_at = s.confirmed_at + interval '1 day'
       from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email = $1`,
      [readers.outage],
    )
    await (
      await testDb()
    ).query(
      `update public.wallet_transactions t set available_at = now() from public.newsletter_subscriptions s
       where s.id = t.subscription_id and s.campaign_id = $1 and t.status = 'pending'`,
      [m.campaignId],
    )
    await settle()
    expect(await subscription(readers.outage!)).toMatchObject({ not_counted_reason: 'not_engaged' })
    expect(await subscription(readers.unread!)).toMatchObject({ counted: true, engagement_decision: 'unverified' })
    expect(await ledgerMismatches()).toEqual([])
  })
})

describe('the evidence row', () => {
  it('is the same for the advertiser, the publisher and admins, and nobody else’s', async () => {
    const row = await evidence(m.advertiser.actor, readers.machine!)
    expect(row).toMatchObject({
      status: 'confirmed',
      reasons: ['not_engaged'],
      opens: 3,
      clicks: 0,
      machine_opens: 3,
      machine_clicks: 0,
      engaged: false,
      decision: 'released',
    })
    expect(Object.keys(row).sort()).toEqual(
      [
        'status',
        'reasons',
        'confirmed_at',
        'delivered_at',
        'opens',
        'clicks',
        'machine_opens',
        'machine_clicks',
        'engaged',
        'decided_at',
        'decision',
      ].sort(),
    )
    expect(row.decided_at).not.toBeNull()
    expect(await evidence(m.publisher.actor, readers.machine!)).toEqual(row)
    expect(await evidence(admin.actor, readers.machine!)).toEqual(row)
    expect(await evidence(m.advertiser.actor, readers.engaged!)).toMatchObject({
      engaged: true,
      decision: 'charged',
      reasons: [],
      machine_opens: null,
    })
    for (const actor of [rival.actor]) {
      expect(
        await errorOf(actor, 'select public.subscriber_evidence($1)', [(await subscription(readers.engaged!)).id]),
      ).toBe('You can only see the evidence of subscribers of your own newsletters or sources')
    }
    expect(
      await errorOf(anon, 'select public.subscriber_evidence($1)', [(await subscription(readers.engaged!)).id]),
    ).toMatch(/permission denied/)
    expect(await errorOf(admin.actor, 'select public.subscriber_evidence($1)', [randomUUID()])).toBe(
      'Subscriber not found',
    )
  })

  it('gives a source’s engaged rate only from 20 readers on', async () => {
    const rate = await queryAs<{ readers: number; engaged: number; engaged_rate: string | null }>(
      anon,
      'select readers, engaged, engaged_rate::text from public.engaged_rates(array[$1]::uuid[])',
      [m.sourceId],
    )
    expect(rate).toEqual([{ readers: 6, engaged: 2, engaged_rate: null }])
    // Partners shows the same rate for the source: not its own count of any open, machines' included, from 5.
    const partners = await queryAs<{ source_id: string; engaged_rate: string | null }>(
      m.advertiser.actor,
      'select source_id, engaged_rate::text from public.campaign_partner_sources($1)',
      [m.campaignId],
    )
    expect(partners.find((row) => row.source_id === m.sourceId)).toMatchObject({ engaged_rate: null })
  })

  it('gives the directory each newsletter’s engaged rate, aggregates only, from 20 readers on', async () => {
    const ask = (actor: typeof anon, ids: string[]) =>
      queryAs<Record<string, unknown>>(actor, 'select * from public.newsletter_engaged_rates($1::uuid[])', [ids])
    // The same readers as the source's (all of this newsletter's came through it), and nothing about any of them.
    expect(await ask(anon, [m.campaignId])).toEqual([
      { campaign_id: m.campaignId, readers: 6, engaged: 2, engaged_rate: null },
    ])
    // From 20 readers on the rate is given (the same rule as engaged_rates).
    const given = await (
      await testDb()
    ).query<{ r: string | null }>(
      'select private.engaged_rate(19, 13)::text as r union all select private.engaged_rate(20, 13)::text',
    )
    expect(given.rows).toEqual([{ r: null }, { r: '65.0' }])
    // A newsletter out of the directory is its owner's (and admins') only; at most 200 at a time.
    await (await testDb()).query("update public.campaigns set status = 'paused' where id = $1", [m.campaignId])
    expect(await ask(anon, [m.campaignId])).toEqual([])
    expect(await ask(m.advertiser.actor, [m.campaignId])).toHaveLength(1)
    expect(
      await ask(
        anon,
        Array.from({ length: 201 }, () => randomUUID()),
      ),
    ).toEqual([])
    await (await testDb()).query("update public.campaigns set status = 'active' where id = $1", [m.campaignId])
  })
})

describe('deciding in sets', () => {
  it('decides a run’s readers as row by row would, within its rows, once', async () => {
    const db = await testDb()
    const set: Record<string, string> = {}
    for (const name of ['click_a', 'click_b', 'machine', 'silent']) {
      set[name] = await reader(`set-${name}`)
      await delivered(set[name])
      // The silent reader's window is still open: its hold is not due yet.
      await age(set[name], name === 'silent' ? 9 : 10.05)
    }
    // Read after the window closed: two people clicked, a proxy opened; the silent reader's tool has not answered.
    await read(set.click_a!, 'true, 1, 1')
    await read(set.click_b!, 'true, 2, 1')
    await read(set.machine!, 'true, 3, 0, null, null, null, 3, 0')
    const figures = async () =>
      (
        await db.query<{ spent: string; conversions: number }>(
          `select c.budget_spent::text as spent, st.total_conversions as conversions from public.campaigns c
           join public.campaign_source_stats st on st.campaign_id = c.id and st.audience_source_id = $2 where c.id = $1`,
          [m.campaignId, m.sourceId],
        )
      ).rows[0]!
    const before = { wallet: await walletOf(m.advertiser.id), figures: await figures() }
    const decide = async (args = '') =>
      (await db.query<{ n: number }>(`select private.decide_engaged_readers(now(), '{}'::uuid[]${args}) as n`)).rows[0]!
        .n

    // Within the run's rows: one hold, and its earning waits for the next run.
    expect(await decide(', 1, 1')).toBe(1)
    // The scheduled settlement decides the rest: the other two holds (charged or released) in a set and both charged
    // readers' earnings (an earning whose hold a run before settled goes row by row).
    expect(await settle()).toBe(4)
    for (const name of ['click_a', 'click_b']) {
      expect(await subscription(set[name]!)).toMatchObject({ counted: true, engagement_decision: 'engaged' })
      expect(await ledgerOf(set[name]!)).toEqual([
        { type: 'debit', status: 'completed', amount: '-5.00' },
        { type: 'earning', status: 'completed', amount: '4.00' },
        { type: 'hold', status: 'canceled', amount: '-5.00' },
      ])
    }
    expect(await subscription(set.machine!)).toMatchObject({
      counted: false,
      not_counted_reason: 'not_engaged',
      engagement_decision: 'not_engaged',
    })
    expect(await ledgerOf(set.machine!)).toEqual([
      { type: 'earning', status: 'canceled', amount: '4.00' },
      { type: 'hold', status: 'canceled', amount: '-5.00' },
      { type: 'release', status: 'completed', amount: '0.00' },
    ])
    // The silent reader's window closes; its tool has not answered since: it waits, looked at again in 5 minutes.
    await age(set.silent!, 1.05)
    expect(await decide()).toBe(0)
    expect(await subscription(set.silent!)).toMatchObject({ counted: true, engagement_decision: null })
    const waits = await db.query<{ later: boolean }>(
      `select bool_and(t.available_at > now() + interval '4 minutes') as later from public.wallet_transactions t
       join public.newsletter_subscriptions s on s.id = t.subscription_id where s.email = $1 and t.status = 'pending'`,
      [set.silent],
    )
    expect(waits.rows[0]!.later).toBe(true)
    // The same money as row by row: two readers charged, the released one's spend and conversion taken back.
    const after = { wallet: await walletOf(m.advertiser.id), figures: await figures() }
    expect(Number(before.wallet.balance) - Number(after.wallet.balance)).toBe(10)
    expect(Number(before.wallet.held) - Number(after.wallet.held)).toBe(15)
    expect(Number(before.figures.spent) - Number(after.figures.spent)).toBe(5)
    expect(before.figures.conversions - after.figures.conversions).toBe(1)
    expect(await ledgerMismatches()).toEqual([])
    // Once: nothing is decided twice, and the scheduled settlement finds nothing left.
    expect(await decide()).toBe(0)
    expect(await settle()).toBe(0)
  })

  it('decides one set a scheduled run and ends there, so the wallet is locked briefly; row by row once no set is left', async () => {
    const db = await testDb()
    const rule = (
      await db.query<{ pay_rule: string; days: number }>(
        'select pay_rule, engagement_window_days as days from public.campaigns where id = $1',
        [m.campaignId],
      )
    ).rows[0]!
    // A reader of the same newsletter under the confirmed rule (the rule applies to new subscribers), due too.
    await db.query("update public.campaigns set pay_rule = 'confirmed' where id = $1", [m.campaignId])
    let confirmedReader: string
    try {
      confirmedReader = await reader('run-confirmed')
    } finally {
      await db.query('update public.campaigns set pay_rule = $2, engagement_window_days = $3 where id = $1', [
        m.campaignId,
        rule.pay_rule,
        rule.days,
      ])
    }
    await age(confirmedReader, 8)
    const engaged = [await reader('run-a'), await reader('run-b')]
    for (const email of engaged) {
      await delivered(email)
      await age(email, 10.05)
      await read(email, 'true, 1, 1')
    }
    const decided = async () =>
      (
        await Promise.all(engaged.map(async (email) => (await subscription(email)).engagement_decision === 'engaged'))
      ).filter(Boolean).length
    const confirmedPending = async () => (await ledgerOf(confirmedReader)).filter((r) => r.status === 'pending').length
    // The scheduled job's call (a time budget, here far more than it needs) with sets of one reader.
    const scheduled = async () =>
      (
        await queryAs<{ n: number }>(
          service,
          "select public.settle_matured_holds(p_max_duration => interval '1 hour') as n",
        )
      )[0]!.n
    const original = (
      await db.query<{ def: string }>("select pg_get_functiondef('private.engaged_chunk_size()'::regprocedure) as def")
    ).rows[0]!.def
    await db.query(
      "create or replace function private.engaged_chunk_size() returns integer language sql immutable set search_path to '' as $$ select 1 $$",
    )
    try {
      // One set (its hold charged, its earning made available), then the run ends: the rest waits for the next run.
      expect(await scheduled()).toBe(2)
      expect(await decided()).toBe(1)
      expect(await confirmedPending()).toBe(2)
      expect(await scheduled()).toBe(2)
      expect(await decided()).toBe(2)
      expect(await confirmedPending()).toBe(2)
      // No set left: the row-by-row path settles the confirmed reader's hold and earning.
      expect(await scheduled()).toBe(2)
      expect(await confirmedPending()).toBe(0)
      expect(await scheduled()).toBe(0)
    } finally {
      await db.query(original)
    }
    expect(await ledgerMismatches()).toEqual([])
  })

  it('settles row by row when the sets fail: all they did is undone and the reader is still decided once', async () => {
    const db = await testDb()
    const email = await reader('set-fallback')
    await delivered(email)
    await age(email, 10.05)
    await read(email, 'true, 1, 1')
    // The sets break (a chunk of -1 rows is refused); the scheduled settlement still decides the reader.
    const original = (
      await db.query<{ def: string }>("select pg_get_functiondef('private.engaged_chunk_size()'::regprocedure) as def")
    ).rows[0]!.def
    await db.query(
      "create or replace function private.engaged_chunk_size() returns integer language sql immutable set search_path to '' as $$ select -1 $$",
    )
    try {
      await expect(db.query("select private.decide_engaged_readers(now(), '{}'::uuid[])")).rejects.toThrow(/LIMIT/)
      expect(await settle()).toBe(2)
    } finally {
      await db.query(original)
    }
    expect(await subscription(email)).toMatchObject({ counted: true, engagement_decision: 'engaged' })
    expect(await ledgerOf(email)).toEqual([
      { type: 'debit', status: 'completed', amount: '-5.00' },
      { type: 'earning', status: 'completed', amount: '4.00' },
      { type: 'hold', status: 'canceled', amount: '-5.00' },
    ])
    expect(await ledgerMismatches()).toEqual([])
    expect(await settle()).toBe(0)
  })
})
