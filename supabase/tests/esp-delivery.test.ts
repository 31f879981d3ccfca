// Subscribers delivered into the advertiser's email tool (issue 25): a connection keeps its key in Vault where no
// API role reads it back (the advertiser, a rival, anon, not even through the tables' grants); a confirmation of a
// connected campaign is queued once, paid or not, and backfill queues the ones who already confirmed; a claim takes
// a delivery once and within the key's budget; the outcome is recorded with backoff, Retry-After pauses and the
// provider's message; the owner retries a failed one. Both engines (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { ESP_KEY_MESSAGES, espKeyProblem } from '../functions/_shared/rules/esp-connection'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { createUser, type NewUser } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, subscribe, type Market } from './helpers/market'

const KEY = `ml-secret-${randomUUID()}`
let m: Market
let rival: NewUser
let admin: NewUser
let tag = 0

async function confirmed(withSource = true) {
  const email = `esp-${randomUUID().slice(0, 8)}-${tag++}@example.com`
  const s = await subscribe(email, [m.campaignId], withSource ? { sourceId: m.sourceId } : {})
  await ageSubscription(email)
  await confirm(s.tokens[0]!, email)
  return email
}

const save = (actor = m.advertiser.actor, over: Record<string, unknown> = {}) =>
  queryAs<{ n: number }>(
    actor,
    'select public.save_esp_connection($1, $2, $3, $4, $5, $6) as n',
    Object.values({
      campaign: m.campaignId,
      provider: 'mailerlite',
      key: KEY,
      target: '100000000000000001',
      name: 'Demo subscribers',
      backfill: false,
      ...over,
    }),
  )

const deliveriesOf = async (email: string) =>
  (
    await (
      await testDb()
    ).query<{ id: string; status: string; attempts: number; last_error: string | null }>(
      `select d.id, d.status, d.attempts, d.last_error from public.esp_deliveries d
       join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email = $1`,
      [email],
    )
  ).rows

const claim = (limit = 100) =>
  queryAs<{ id: string; api_key: string; email: string; provider: string; source_name: string; attempts: number }>(
    service,
    'select * from public.claim_esp_deliveries($1)',
    [limit],
  )

/** Claims until the delivery of `email` is in hand (others of earlier tests may be due too) and returns it. */
async function claimOf(email: string) {
  const rows = await claim()
  return rows.find((r) => r.email === email)
}

beforeAll(async () => {
  m = await createMarket({ deposit: 200, price: 5, budget: 100 })
  rival = await createUser('advertiser')
  admin = await createUser('admin')
})

describe('connecting a campaign', () => {
  it('refuses bad input with the sentences the form shows, and other people’s campaigns', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: 'sendgrid' }, ESP_KEY_MESSAGES.provider],
      [{ key: '   ' }, ESP_KEY_MESSAGES.missing],
      [{ key: 'a'.repeat(501) }, ESP_KEY_MESSAGES.tooLong],
      [{ key: 'two words' }, ESP_KEY_MESSAGES.spaces],
      [{ provider: 'mailchimp', key: 'abc123' }, ESP_KEY_MESSAGES.mailchimpDataCentre],
      [{ target: ' ' }, 'Choose the list your subscribers should go to'],
      [{ target: '1'.repeat(201) }, 'That list id is too long; load your lists and choose one again'],
    ]
    for (const [over, message] of cases) {
      const error = await save(m.advertiser.actor, over).then(
        () => '',
        (e: Error) => e.message,
      )
      expect(error, JSON.stringify(over)).toBe(message)
      // The SPA's check (the same module) says the same, so the form never waits for the database to say it.
      if ('key' in over || 'provider' in over)
        expect(espKeyProblem(over.provider ?? 'mailerlite', String(over.key ?? KEY))).toBe(message)
    }
    expect(ESP_KEY_MESSAGES.target).toBe('Choose the list your subscribers should go to')
    expect(espKeyProblem('mailchimp', 'abc-us21')).toBeNull()
    const refused = await save(rival.actor).then(
      () => '',
      (e: Error) => e.message,
    )
    expect(refused).toBe('You can only connect your own newsletters')
    expect(
      await errorOf(anon, 'select public.save_esp_connection($1, $2, $3, $4)', [m.campaignId, 'kit', 'k', '1']),
    ).toMatch(/permission denied/)
  })

  it('stores the key in Vault, where the advertiser, a rival and anon cannot read it back', async () => {
    expect((await save())[0]!.n).toBe(0)
    const db = await testDb()
    const secret = await db.query<{ decrypted_secret: string }>(
      `select v.decrypted_secret from public.esp_connections c join vault.decrypted_secrets v on v.id = c.secret_id
       where c.campaign_id = $1`,
      [m.campaignId],
    )
    expect(secret.rows.map((r) => r.decrypted_secret)).toEqual([KEY])

    const own = await queryAs(
      m.advertiser.actor,
      'select provider, target_id, target_name from public.esp_connections where campaign_id = $1',
      [m.campaignId],
    )
    expect(own).toEqual([{ provider: 'mailerlite', target_id: '100000000000000001', target_name: 'Demo subscribers' }])
    expect(
      await queryAs(rival.actor, 'select id from public.esp_connections where campaign_id = $1', [m.campaignId]),
    ).toEqual([])
    expect(
      await queryAs(admin.actor, 'select provider from public.esp_connections where campaign_id = $1', [m.campaignId]),
    ).toEqual([{ provider: 'mailerlite' }])

    for (const actor of [m.advertiser.actor, rival.actor, anon, admin.actor]) {
      for (const sql of [
        'select secret_id from public.esp_connections',
        'select key_fingerprint from public.esp_connections',
        'select * from vault.decrypted_secrets',
        'select * from vault.secrets',
        'select * from public.claim_esp_deliveries(10)',
        "select vault.create_secret('x')",
      ])
        expect(await errorOf(actor, sql), `${JSON.stringify(actor)} ${sql}`).toMatch(/permission denied/)
    }
    expect(await errorOf(anon, 'select id from public.esp_connections')).toMatch(/permission denied/)
    // No client writes a connection or a delivery directly.
    for (const sql of [
      `insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
       values ('${m.campaignId}', '${m.advertiser.id}', 'kit', '1', 'x', gen_random_uuid(), 'x')`,
      `update public.esp_connections set target_id = '2'`,
      `delete from public.esp_deliveries`,
      `update public.esp_deliveries set status = 'delivered'`,
    ])
      expect(await errorOf(m.advertiser.actor, sql), sql).toMatch(/permission denied/)
  })

  it('limits how often an advertiser changes connections', async () => {
    const db = await testDb()
    const busy = await createMarket()
    await db.query(
      'insert into private.rate_limits (key, window_start, hits) values ($1, now(), 30) on conflict (key) do update set hits = 30, window_start = now()',
      [`esp-connection:${busy.advertiser.id}`],
    )
    const error = await queryAs(busy.advertiser.actor, "select public.save_esp_connection($1, 'kit', 'k', '1')", [
      busy.campaignId,
    ]).then(
      () => '',
      (e: Error) => e.message,
    )
    expect(error).toBe('You changed email tool connections 30 times in the last hour; wait a while')
  })

  it('replaces the key in the same Vault secret when the connection is saved again', async () => {
    const db = await testDb()
    const before = await db.query<{ n: string }>('select count(*)::text as n from vault.secrets')
    await save(m.advertiser.actor, { key: `${KEY}-rotated` })
    const after = await db.query<{ n: string; key: string }>(
      `select (select count(*)::text from vault.secrets) as n, v.decrypted_secret as key
       from public.esp_connections c join vault.decrypted_secrets v on v.id = c.secret_id where c.campaign_id = $1`,
      [m.campaignId],
    )
    expect(after.rows[0]).toEqual({ n: before.rows[0]!.n, key: `${KEY}-rotated` })
    await save()
  })
})

describe('the delivery queue', () => {
  it('queues a confirmation of a connected campaign once, paid or not, and a claim takes it once', async () => {
    const paid = await confirmed(true)
    const free = await confirmed(false)
    expect(await deliveriesOf(paid)).toMatchObject([{ status: 'queued', attempts: 0 }])
    expect(await deliveriesOf(free)).toMatchObject([{ status: 'queued', attempts: 0 }])
    // Touching the confirmed row again queues nothing more.
    const db = await testDb()
    await db.query("update public.newsletter_subscriptions set confirm_user_agent = 'again' where email = $1", [paid])
    expect(await deliveriesOf(paid)).toHaveLength(1)

    const first = await claim()
    const mine = first.filter((r) => r.email === paid || r.email === free)
    expect(mine).toHaveLength(2)
    expect(mine.find((r) => r.email === paid)).toMatchObject({
      provider: 'mailerlite',
      api_key: KEY,
      source_name: 'Test source',
      attempts: 1,
    })
    expect(mine.find((r) => r.email === free)!.source_name).toBe('Growletter')
    // Claimed is claimed: a second claimer (a concurrent run of deliver-esp) gets neither.
    const second = await claim()
    expect(second.filter((r) => r.email === paid || r.email === free)).toEqual([])
    for (const r of mine) await queryAs(service, "select public.finish_esp_delivery($1, 'remote-1', 201)", [r.id])
    expect(await deliveriesOf(paid)).toMatchObject([{ status: 'delivered', attempts: 1, last_error: null }])
  })

  it('backfills the subscribers who already confirmed, without queueing anyone twice', async () => {
    const m2 = m
    const before = await confirmed()
    // Disconnecting forgets the queue and deletes the key from Vault.
    const db = await testDb()
    const secretId = (
      await db.query<{ secret_id: string }>('select secret_id from public.esp_connections where campaign_id = $1', [
        m2.campaignId,
      ])
    ).rows[0]!.secret_id
    expect(
      (await queryAs<{ ok: boolean }>(m.advertiser.actor, 'select public.disconnect_esp($1) as ok', [m.campaignId]))[0]!
        .ok,
    ).toBe(true)
    expect((await db.query('select 1 from vault.secrets where id = $1', [secretId])).rows).toEqual([])
    expect(await deliveriesOf(before)).toEqual([])
    expect(await errorOf(rival.actor, 'select public.disconnect_esp($1)', [m.campaignId])).toBe(
      'You can only disconnect your own newsletters',
    )

    const confirmedCount = Number(
      (
        await db.query<{ n: string }>(
          'select count(*)::text as n from public.newsletter_subscriptions where campaign_id = $1 and confirmed_at is not null',
          [m.campaignId],
        )
      ).rows[0]!.n,
    )
    expect((await save(m.advertiser.actor, { backfill: true }))[0]!.n).toBe(confirmedCount)
    expect((await save(m.advertiser.actor, { backfill: true }))[0]!.n).toBe(0)
    expect(await deliveriesOf(before)).toMatchObject([{ status: 'queued' }])
    // Leave nothing due for the next test's claims.
    for (const r of await claim()) await queryAs(service, "select public.finish_esp_delivery($1, 'r', 200)", [r.id])
  })

  it('keeps each key within its budget: at most 120 Kit requests (60 deliveries of 2) a minute', async () => {
    const db = await testDb()
    const k = await createMarket({ deposit: 200, price: 5, budget: 100 })
    await queryAs(k.advertiser.actor, "select public.save_esp_connection($1, 'kit', $2, '1001', 'Form')", [
      k.campaignId,
      `kit-${randomUUID()}`,
    ])
    const connection = (
      await db.query<{ id: string }>('select id from public.esp_connections where campaign_id = $1', [k.campaignId])
    ).rows[0]!.id
    await db.query(
      `with subs as (
         insert into public.newsletter_subscriptions (campaign_id, email, status, confirmed_at)
         select $1, 'bulk-' || g || '-' || $2 || '@example.com', 'confirmed', now() from generate_series(1, 70) g
         returning id)
       select count(*) from subs`,
      [k.campaignId, randomUUID().slice(0, 6)],
    )
    const mine = async () => {
      const rows = await queryAs<{ id: string; provider: string }>(
        service,
        'select id, provider from public.claim_esp_deliveries(100)',
      )
      return rows.filter((r) => r.provider === 'kit')
    }
    expect(await mine()).toHaveLength(60)
    expect(await mine()).toHaveLength(0)
    // A minute later the budget is back (the request log is what the window counts).
    await db.query("update private.esp_request_log set sent_at = sent_at - interval '61 seconds'")
    expect(await mine()).toHaveLength(10)
    await db.query(
      "update public.esp_deliveries set status = 'delivered', locked_until = null where connection_id = $1",
      [connection],
    )
  })

  it('retries rate limits and outages with backoff, pauses the key on Retry-After, and fails a 4xx with its message', async () => {
    const db = await testDb()
    const limited = await confirmed()
    let d = (await claimOf(limited))!
    expect(
      (
        await queryAs<{ r: string }>(
          service,
          "select public.finish_esp_delivery($1, null, 429, 'Too many', true, 30000) as r",
          [d.id],
        )
      )[0]!.r,
    ).toBe('queued')
    // The whole key waits for Retry-After, not just this subscriber.
    const other = await confirmed()
    expect(await claimOf(other)).toBeUndefined()
    await db.query("update private.esp_key_pauses set paused_until = now() - interval '1 second'")
    await db.query("update public.esp_deliveries set next_attempt_at = now() where status = 'queued'")
    const both = await claim()
    expect(both.map((r) => r.email).sort()).toEqual([limited, other].sort())

    d = both.find((r) => r.email === limited)!
    await queryAs(service, "select public.finish_esp_delivery($1, null, 500, 'Internal server error', true)", [d.id])
    const after = await db.query<{ wait: number; status: string; last_error: string }>(
      `select extract(epoch from next_attempt_at - now())::int as wait, status, last_error from public.esp_deliveries where id = $1`,
      [d.id],
    )
    // Its second failure: the backoff's second step (1 minute).
    expect(after.rows[0]).toEqual({ wait: 60, status: 'queued', last_error: 'Internal server error' })

    const rejected = both.find((r) => r.email === other)!
    await queryAs(
      service,
      "select public.finish_esp_delivery($1, null, 422, 'The email must be a valid email address.', false)",
      [rejected.id],
    )
    expect(await deliveriesOf(other)).toMatchObject([
      { status: 'failed', last_error: 'The email must be a valid email address.' },
    ])

    // A day after it was queued, an outage is given up with the provider's message.
    await db.query(
      "update public.esp_deliveries set queued_at = now() - interval '1 day', next_attempt_at = now() where id = $1",
      [d.id],
    )
    const again = (await claimOf(limited))!
    await queryAs(service, "select public.finish_esp_delivery($1, null, 503, 'Service unavailable', true)", [again.id])
    expect(await deliveriesOf(limited)).toMatchObject([
      { status: 'failed', last_error: 'Still failing after a day: Service unavailable' },
    ])
  })

  it('lets only the owner retry a failed delivery, and only a failed one', async () => {
    const [failed] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      "select id from public.esp_deliveries where campaign_id = $1 and status = 'failed' limit 1",
      [m.campaignId],
    )
    expect(await queryAs(rival.actor, 'select id from public.esp_deliveries where id = $1', [failed!.id])).toEqual([])
    expect(await errorOf(rival.actor, 'select public.retry_esp_delivery($1)', [failed!.id])).toBe(
      'You can only retry deliveries of your own newsletters',
    )
    expect(await errorOf(anon, 'select public.retry_esp_delivery($1)', [failed!.id])).toMatch(/permission denied/)
    await queryAs(m.advertiser.actor, 'select public.retry_esp_delivery($1)', [failed!.id])
    const db = await testDb()
    const row = await db.query('select status, attempts, last_error from public.esp_deliveries where id = $1', [
      failed!.id,
    ])
    expect(row.rows[0]).toEqual({ status: 'queued', attempts: 0, last_error: null })
    expect(await errorOf(m.advertiser.actor, 'select public.retry_esp_delivery($1)', [failed!.id])).toBe(
      'This subscriber is already waiting to be sent',
    )
    const [delivered] = await queryAs<{ id: string }>(
      m.advertiser.actor,
      "select id from public.esp_deliveries where campaign_id = $1 and status = 'delivered' limit 1",
      [m.campaignId],
    )
    expect(await errorOf(m.advertiser.actor, 'select public.retry_esp_delivery($1)', [delivered!.id])).toBe(
      'This subscriber is already in your email tool',
    )
    await db.query("update public.esp_deliveries set status = 'failed' where id = $1", [failed!.id])
    await db.query(
      'insert into private.rate_limits (key, window_start, hits) values ($1, now(), 30) on conflict (key) do update set hits = 30, window_start = now()',
      [`esp-retry:${m.advertiser.id}`],
    )
    expect(await errorOf(m.advertiser.actor, 'select public.retry_esp_delivery($1)', [failed!.id])).toBe(
      'You retried 30 deliveries in the last minute; wait a moment',
    )
    for (const actor of [m.advertiser.actor, rival.actor, anon])
      expect(await errorOf(actor, "select public.finish_esp_delivery($1, 'x', 200)", [failed!.id])).toMatch(
        /permission denied/,
      )
  })

  it('schedules deliver-esp every 10 seconds', async () => {
    const db = await testDb()
    const jobs = await db.query("select schedule, command from cron.job where jobname = 'deliver-esp'")
    expect(jobs.rows).toEqual([{ schedule: '10 seconds', command: 'select private.dispatch_esp_deliveries()' }])
  })
})
