/**
 * Issue 41, "links that survive in-app browsers": a counted click carries a signed, expiring click token
 * (track_audience_source_click answers `click_token`; the link's `ct=…`); a subscriber who presents a valid token of
 * that source counts though the address or browser changed since the click. The token cannot be forged, outlives no
 * 72 hours, names one source, and backs at most 2 addresses besides its clicker's; every other rule still applies.
 * The embed's own figures (loads, subscribers through it) and the count of token-backed subscribers come from the
 * database (embed_offers, embed_load, publisher_embed_figures).
 */
import { describe, expect, it } from 'vitest'
import { anon, queryAs, service, testDb } from './helpers/db'
import { ledgerMismatches } from './helpers/fixtures'
import {
  ageSubscription,
  BROWSER_UA,
  confirm,
  createMarket,
  newVisitor,
  subscribe,
  type Market,
  type Visitor,
} from './helpers/market'

type Click = {
  click_id: string | null
  click_token: string | null
  counted: boolean
  not_counted_reason: string | null
}

/** A click as the browser records it: the in-app browser's identity, maybe a channel. */
async function click(code: string, visitor: Visitor, deviceInfo: Record<string, unknown> = {}): Promise<Click> {
  const rows = await queryAs<{ r: Click }>(
    anon,
    'select public.track_audience_source_click($1, $2) as r',
    [code, JSON.stringify(deviceInfo)],
    { 'x-real-ip': visitor.ip, 'user-agent': visitor.userAgent },
  )
  return rows[0]!.r
}

let seq = 0
const address = (name: string) => `${name}-${++seq}-${Date.now()}@example.org`

/** Subscribes `email` from `visitor` (another browser than the click's unless given), confirms, answers the outcome. */
async function subscribeAndConfirm(
  m: Market,
  email: string,
  {
    visitor = newVisitor(),
    clickToken = null as string | null,
    clickId = null as string | null,
    sourceId = m.sourceId,
  } = {},
) {
  const { tokens } = await subscribe(email, [m.campaignId], { sourceId, visitor, clickToken, clickId, click: false })
  await ageSubscription(email)
  const outcome = await confirm(tokens[0]!, email)
  const db = await testDb()
  const row = await db.query<{ audience_source_id: string | null; click_id: string | null; click_token_used: boolean }>(
    'select audience_source_id, click_id, click_token_used from public.newsletter_subscriptions where email = $1',
    [email],
  )
  return { ...outcome, ...row.rows[0]! }
}

describe('click token: a reader who clicked in one browser subscribes in another', () => {
  it('is issued with a counted click, signed and bound to it', async () => {
    const m = await createMarket()
    const c = await click(m.code, newVisitor())
    expect(c.counted).toBe(true)
    expect(c.click_token).toMatch(new RegExp(`^${c.click_id}\\.\\d+\\.[0-9a-f]{32}$`))
    // It expires 72 hours after the click.
    const expires = Number(c.click_token!.split('.')[1]) * 1000
    expect(expires - Date.now()).toBeGreaterThan(71.9 * 3600_000)
    expect(expires - Date.now()).toBeLessThanOrEqual(72 * 3600_000)
    // A bot's click and a duplicate visitor's click are not counted, and carry no token.
    expect(await click(m.code, { ip: '10.250.0.1', userAgent: 'curl/8.5.0' })).toMatchObject({
      counted: false,
      click_token: null,
    })
    const visitor = newVisitor()
    await click(m.code, visitor)
    expect(await click(m.code, visitor)).toMatchObject({ not_counted_reason: 'duplicate_visitor', click_token: null })
  })

  it('counts the reader with the token in another browser and address; without it, no_click', async () => {
    const m = await createMarket({ deposit: 100, price: 2, budget: 100 })
    const inApp = newVisitor()
    const c = await click(m.code, inApp)
    // In Safari on mobile data: another address and browser, the click id not in its storage, only the URL's token.
    const safari = { ip: '10.251.0.1', userAgent: `${BROWSER_UA} Safari-elsewhere` }
    const withToken = await subscribeAndConfirm(m, address('token'), { visitor: safari, clickToken: c.click_token })
    expect(withToken).toMatchObject({
      counted: true,
      not_counted_reason: null,
      audience_source_id: m.sourceId,
      click_id: c.click_id,
      click_token_used: true,
    })
    // The same reader without the token: the click id alone does not follow them to another browser.
    const c2 = await click(m.code, newVisitor())
    expect(
      await subscribeAndConfirm(m, address('no-token'), {
        visitor: { ...safari, ip: '10.251.0.2' },
        clickId: c2.click_id,
      }),
    ).toMatchObject({ counted: false, not_counted_reason: 'no_click', click_token_used: false })
    // The token also brings the source when the new browser knows nothing of it.
    const c3 = await click(m.code, newVisitor())
    expect(
      await subscribeAndConfirm(m, address('bare'), {
        visitor: newVisitor(),
        clickToken: c3.click_token,
        sourceId: null as never,
      }),
    ).toMatchObject({ counted: true, audience_source_id: m.sourceId, click_token_used: true })
    expect(await ledgerMismatches()).toEqual([])
  })

  it('needs no token for the visitor who clicked: counted by the same-visitor rule, not recorded as by token', async () => {
    const m = await createMarket()
    const visitor = newVisitor()
    const c = await click(m.code, visitor)
    expect(
      await subscribeAndConfirm(m, address('same'), { visitor, clickId: c.click_id, clickToken: c.click_token }),
    ).toMatchObject({ counted: true, click_token_used: false })
  })

  it('ignores a forged token: another signature, another click id, another expiry, garbage', async () => {
    const m = await createMarket()
    const c = await click(m.code, newVisitor())
    const [id, expires, sig] = c.click_token!.split('.') as [string, string, string]
    const other = await click(m.code, newVisitor())
    const forged = [
      `${id}.${expires}.${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`,
      `${other.click_id}.${expires}.${sig}`,
      `${id}.${Number(expires) + 3600}.${sig}`,
      `${id}.${expires}`,
      'not-a-token',
    ]
    for (const token of forged) {
      expect(await subscribeAndConfirm(m, address('forged'), { clickToken: token })).toMatchObject({
        counted: false,
        not_counted_reason: 'no_click',
        click_id: null,
        click_token_used: false,
      })
    }
  })

  it('ignores an expired token: 72 hours after the click', async () => {
    const m = await createMarket()
    const c = await click(m.code, newVisitor())
    const db = await testDb()
    // The click made 73 hours ago, and the token it was issued then (signed by the database's own key).
    const old = await db.query<{ token: string }>(
      `update public.link_clicks set created_at = created_at - interval '73 hours' where id = $1
       returning private.click_token(id, audience_source_id, created_at) as token`,
      [c.click_id],
    )
    const token = old.rows[0]!.token
    expect(token).not.toBe(c.click_token)
    expect(await subscribeAndConfirm(m, address('late'), { clickToken: token })).toMatchObject({
      counted: false,
      not_counted_reason: 'no_click',
      click_token_used: false,
    })
    // Still within 72 hours it counts.
    await db.query(`update public.link_clicks set created_at = now() - interval '71 hours' where id = $1`, [c.click_id])
    const fresh = await db.query<{ token: string }>(
      `select private.click_token(id, audience_source_id, created_at) as token from public.link_clicks where id = $1`,
      [c.click_id],
    )
    expect(await subscribeAndConfirm(m, address('in-time'), { clickToken: fresh.rows[0]!.token })).toMatchObject({
      counted: true,
      click_token_used: true,
    })
  })

  it('names one source: presented for another source it is ignored', async () => {
    const m = await createMarket()
    const other = await createMarket()
    const c = await click(m.code, newVisitor())
    // Another publisher's page sending the first source's token with its own source.
    expect(
      await subscribeAndConfirm({ ...m, sourceId: other.sourceId }, address('wrong-source'), {
        clickToken: c.click_token,
      }),
    ).toMatchObject({
      counted: false,
      not_counted_reason: 'no_click',
      audience_source_id: other.sourceId,
      click_id: null,
    })
  })

  it('backs at most 2 addresses besides the clicker: a token posted publicly attributes no crowd', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const clicker = newVisitor()
    const c = await click(m.code, clicker)
    const outcomes = []
    for (const name of ['first', 'second', 'third', 'fourth']) {
      outcomes.push(await subscribeAndConfirm(m, address(name), { clickToken: c.click_token }))
    }
    expect(outcomes.map((o) => o.not_counted_reason)).toEqual([null, null, 'no_click', 'no_click'])
    // The clicker themself still counts (same visitor), and one of the 2 subscribing to a second newsletter too.
    expect(
      await subscribeAndConfirm(m, address('clicker'), {
        visitor: clicker,
        clickId: c.click_id,
        clickToken: c.click_token,
      }),
    ).toMatchObject({ counted: true, click_token_used: false })
    const figures = await queryAs<{ token_subscribers: string }>(
      m.publisher.actor,
      'select token_subscribers::text from public.publisher_embed_figures() where source_id = $1',
      [m.sourceId],
    )
    expect(figures).toEqual([{ token_subscribers: '2' }])
  })

  it('keeps the fraud rules: per-visitor velocity still refuses the fourth reader of one browser in an hour', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const safari = newVisitor()
    const reasons = []
    for (let i = 0; i < 4; i++) {
      const c = await click(m.code, newVisitor())
      reasons.push(
        (await subscribeAndConfirm(m, address(`fast${i}`), { visitor: safari, clickToken: c.click_token }))
          .not_counted_reason,
      )
    }
    expect(reasons).toEqual([null, null, null, 'velocity'])
  })
})

describe('private.hmac_sha256 (core sha256, as pgcrypto cannot always start in PGlite)', () => {
  it('gives RFC 4231’s HMAC-SHA256 answers, for a short key and for a key longer than a block', async () => {
    const db = await testDb()
    const hmac = async (keyHex: string, message: string) =>
      (
        await db.query<{ h: string }>(
          `select encode(private.hmac_sha256(decode($1, 'hex'), convert_to($2, 'UTF8')), 'hex') as h`,
          [keyHex, message],
        )
      ).rows[0]!.h
    // Test case 2: key "Jefe".
    expect(await hmac('4a656665', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    )
    // Test case 6: a 131-byte key, hashed first.
    expect(await hmac('aa'.repeat(131), 'Test Using Larger Than Block-Size Key - Hash Key First')).toBe(
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    )
  })
})

describe('embed: loads, channel and figures from the database', () => {
  it('counts loads (not bots), records the embed channel on its click and subscriber, and reports them', async () => {
    // The best paid newsletter of the test database (the top price, and a name that sorts before the other markets'
    // "Test newsletter" at that price), so the embed's 6 offers include it whatever other files left in the database.
    const m = await createMarket({ deposit: 500, price: 50, budget: 500 })
    await (await testDb()).query(`update public.campaigns set name = '0 Embed offer' where id = $1`, [m.campaignId])
    const reader = newVisitor()
    const load = async (visitor: Visitor) =>
      (
        await queryAs<{ r: { status: string; source: { id: string } | null; offers: { id: string }[] } }>(
          anon,
          'select public.embed_load($1) as r',
          [m.code],
          { 'x-real-ip': visitor.ip, 'user-agent': visitor.userAgent },
        )
      )[0]!.r
    // The frame renders from embed_offers (read-only, so the API serves it by GET: no CORS preflight) and then
    // sends embed_load, which counts and answers the same.
    const offers = async (code: string) =>
      (await queryAs<{ r: Awaited<ReturnType<typeof load>> }>(anon, 'select public.embed_offers($1) as r', [code]))[0]!
        .r
    const shown = await offers(m.code)
    expect(shown.status).toBe('valid')
    expect(shown.source?.id).toBe(m.sourceId)
    expect(shown.offers.map((o) => o.id)).toContain(m.campaignId)
    expect(shown.offers.length).toBeLessThanOrEqual(6)
    const answer = await load(reader)
    expect(answer).toEqual(shown)
    expect(await offers('no-such-code')).toEqual({ status: 'not_found', source: null, offers: [] })
    expect(
      (
        await (
          await testDb()
        ).query(`select provolatile from pg_proc where oid = 'public.embed_offers(text)'::regprocedure`)
      ).rows,
    ).toEqual([{ provolatile: 's' }])
    await load(newVisitor())
    await load({ ip: '10.252.0.1', userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })
    // The publisher's own preview, signed in, is not a load.
    await queryAs(m.publisher.actor, 'select public.embed_load($1)', [m.code], {
      'x-real-ip': '10.252.0.2',
      'user-agent': BROWSER_UA,
    })
    expect(
      (await queryAs<{ r: { status: string } }>(anon, "select public.embed_load('no-such-code') as r"))[0]!.r,
    ).toEqual({ status: 'not_found', source: null, offers: [] })

    const c = await click(m.code, reader, { channel: 'embed' })
    const email = address('embed')
    expect(
      await subscribeAndConfirm(m, email, { visitor: reader, clickId: c.click_id, clickToken: c.click_token }),
    ).toMatchObject({ counted: true })
    const db = await testDb()
    expect(
      (await db.query('select channel from public.newsletter_subscriptions where email = $1', [email])).rows,
    ).toEqual([{ channel: 'embed' }])
    // A link reader of the same source is not an embed subscriber.
    const l = await click(m.code, newVisitor())
    await subscribeAndConfirm(m, address('link'), { clickToken: l.click_token })

    const figures = await queryAs(
      m.publisher.actor,
      `select loads::int, subscribers::int, paid_subscribers::int, token_subscribers::int, offers::int
       from public.publisher_embed_figures() where source_id = $1`,
      [m.sourceId],
    )
    // `offers`: how many newsletters the embed shows now, the room the Embed page's snippet reserves.
    const showing = (await offers(m.code)).offers.length
    expect(figures).toEqual([{ loads: 2, subscribers: 1, paid_subscribers: 1, token_subscribers: 1, offers: showing }])
    // Another publisher sees none of it; visitors cannot read the loads.
    expect(
      await queryAs(
        (await createMarket()).publisher.actor,
        'select * from public.publisher_embed_figures() where source_id = $1',
        [m.sourceId],
      ),
    ).toEqual([])
    expect(await queryAs(anon, 'select 1 from public.embed_loads').catch((e: Error) => e.message)).toMatch(
      /permission denied/,
    )
    const loads = async () =>
      await queryAs(service, 'select loads from public.embed_loads where audience_source_id = $1', [m.sourceId])
    expect(await loads()).toEqual([{ loads: 2 }])
    // One address reloading it counts 30 loads an hour, not more (it is still answered).
    const office = newVisitor()
    for (let i = 0; i < 31; i++) expect((await load(office)).status).toBe('valid')
    expect(await loads()).toEqual([{ loads: 32 }])
  })
})
