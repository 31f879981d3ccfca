// Whose rows each figure function sums when no campaign or source is named: the caller's scope is resolved
// once per call (private.figures_viewer, in supabase/schemas/13_figures.sql), so these pin that it is still the campaign's
// advertiser, the source's publisher — and nobody else — for every function, with two markets that cross
// (campaign B runs on source A; a bot on source B opens campaign A) among the other test files' rows.
import { randomInt } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, drainClicks, queryAs, type Actor } from './helpers/db'
import { BROWSER_UA, clickSource, createMarket, type Market } from './helpers/market'

let a: Market
let b: Market
const today = new Date().toISOString().slice(0, 10)
// Addresses of this file's own, away from the other files' visitors (per-address click rules).
const visitor = (userAgent = BROWSER_UA) => ({ ip: `10.251.${randomInt(256)}.${randomInt(1, 255)}`, userAgent })

async function view(clickId: string, campaignId: string) {
  await queryAs(anon, 'select public.record_campaign_page_view($1, $2)', [clickId, campaignId])
}

async function pairs(actor: Actor, from: string | null = null) {
  const rows = await queryAs<{ campaign_id: string; source_id: string }>(
    actor,
    'select campaign_id, source_id from public.campaign_source_figures(null, null, $1, $1)',
    [from],
  )
  return rows
    .map(
      (r) =>
        `${r.campaign_id === a.campaignId ? 'A' : r.campaign_id === b.campaignId ? 'B' : '?'}|${r.source_id === a.sourceId ? 'a' : r.source_id === b.sourceId ? 'b' : '?'}`,
    )
    .sort()
}

async function todayOf(actor: Actor) {
  const rows = await queryAs<{ views: number; clicks: number }>(
    actor,
    'select views::int, clicks::int from public.daily_figures(null, null, $1, $1)',
    [today],
  )
  return rows[0]
}

beforeAll(async () => {
  a = await createMarket()
  b = await createMarket()
  const onA = await clickSource(a.sourceId, visitor())
  await view(onA, a.campaignId)
  await view(onA, b.campaignId)
  await view(await clickSource(b.sourceId, visitor()), b.campaignId)
  await view(await clickSource(b.sourceId, visitor('Googlebot/2.1 (+http://www.google.com/bot.html)')), a.campaignId)
  await drainClicks()
})

describe('figures without a campaign or source named', () => {
  it("list the advertiser's campaigns and the publisher's sources, all time and over a range", async () => {
    for (const from of [null, today]) {
      expect(await pairs(a.advertiser.actor, from)).toEqual(['A|a'])
      expect(await pairs(b.advertiser.actor, from)).toEqual(['B|a', 'B|b'])
      expect(await pairs(a.publisher.actor, from)).toEqual(['A|a', 'B|a'])
      expect(await pairs(b.publisher.actor, from)).toEqual(['B|b'])
    }
  })

  it("sum per day only the caller's rows", async () => {
    expect(await todayOf(a.advertiser.actor)).toEqual({ views: 1, clicks: 1 })
    expect(await todayOf(b.advertiser.actor)).toEqual({ views: 2, clicks: 2 })
    expect(await todayOf(a.publisher.actor)).toEqual({ views: 2, clicks: 2 })
    expect(await todayOf(b.publisher.actor)).toEqual({ views: 1, clicks: 1 })
  })

  it("explain what did not count on the caller's side only", async () => {
    const bot = [{ kind: 'click', reason: 'bot_user_agent', total: 1 }]
    const notCounted = (actor: Actor, campaignId: string | null = null) =>
      queryAs(actor, 'select kind, reason, total::int from public.not_counted_figures($1)', [campaignId])
    // Every click on a source is its publisher's; the bot's click belongs to campaign A only once named.
    expect(await notCounted(b.publisher.actor)).toEqual(bot)
    expect(await notCounted(a.publisher.actor)).toEqual([])
    expect(await notCounted(a.advertiser.actor)).toEqual([])
    expect(await notCounted(a.advertiser.actor, a.campaignId)).toEqual(bot)
    expect(await notCounted(b.advertiser.actor, b.campaignId)).toEqual([])
  })
})
