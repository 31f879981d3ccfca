// What a visitor learns about a newsletter they cannot subscribe to (issue 23, point 8): out of budget, paused,
// closed, or — for anything never approved or unknown — not found, exactly as before.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { anon, queryAs, testDb } from './helpers/db'
import { createMarket, type Market } from './helpers/market'

let m: Market
const availability = async (id: string) =>
  (await queryAs<{ a: string }>(anon, 'select public.newsletter_availability($1) as a', [id]))[0]!.a

async function withStatus(status: string, funding = 'funded') {
  const db = await testDb()
  await db.query(`update public.campaigns set status = $2 where id = $1`, [m.campaignId, status])
  if (funding !== 'funded')
    await db.query(`update public.campaigns set budget_total = budget_spent + budget_reserved where id = $1`, [
      m.campaignId,
    ])
}

beforeAll(async () => {
  m = await createMarket()
})

describe('newsletter_availability', () => {
  it('says open for an active, funded newsletter, to a visitor', async () => {
    expect(await availability(m.campaignId)).toBe('open')
  })

  it('says out_of_budget when it cannot pay one more subscriber, and the visitor cannot read the row itself', async () => {
    await withStatus('active', 'budget_exhausted')
    expect(await availability(m.campaignId)).toBe('out_of_budget')
    expect(await queryAs(anon, 'select id from public.campaigns where id = $1', [m.campaignId])).toEqual([])
  })

  it('says paused and closed, and not_found for what was never approved or does not exist', async () => {
    for (const [status, expected] of [
      ['paused', 'paused'],
      ['completed', 'closed'],
      ['archived', 'closed'],
      ['pending_review', 'not_found'],
      ['rejected', 'not_found'],
      ['banned', 'not_found'],
    ]) {
      await withStatus(status!)
      expect(await availability(m.campaignId)).toBe(expected)
    }
    expect(await availability(randomUUID())).toBe('not_found')
  })
})
