/**
 * Issue 37, "Scripted readers get paid": twelve scripted readers, each with its own address, browser and inbox on one
 * catch-all domain, all became paid subscribers of one source. Now one email domain brings at most 3 paid readers a
 * day through one source (reason `domain_velocity`); webmail is never limited by it, and a company's colleagues, a few
 * a day, still count. Admins see each source's domains (admin_source_domains).
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, testDb } from './helpers/db'
import { actors, createUser, ledgerMismatches } from './helpers/fixtures'
import { ageSubscription, confirm, createMarket, newVisitor, subscribe, walletOf, type Market } from './helpers/market'

/** A domain no other test uses (the rule counts a day of the source's readers). */
const freshDomain = (name: string) => `${name}-${randomUUID().slice(0, 8)}.com`

/** One reader, a visitor of their own (own address and browser), clicking the source, subscribing and confirming. */
async function readerConfirms(m: Market, email: string, campaignId = m.campaignId) {
  const { tokens } = await subscribe(email, [campaignId], { sourceId: m.sourceId, visitor: newVisitor() })
  await ageSubscription(email)
  return confirm(tokens[0]!, email)
}

async function reasons(m: Market, emails: string[], campaignId = m.campaignId) {
  const out: (string | null)[] = []
  for (const email of emails) out.push((await readerConfirms(m, email, campaignId)).not_counted_reason)
  return out
}

describe('attack: scripted readers on one catch-all domain', () => {
  it('pays 3 of twelve readers of one domain through one source in a day; the other 9 say why', async () => {
    const m = await createMarket({ deposit: 100, price: 2, budget: 100 })
    const farm = freshDomain('catchall')
    // Subdomains of the catch-all are the same domain.
    const emails = Array.from({ length: 12 }, (_, i) => (i % 2 ? `reader${i}@${farm}` : `reader${i}@mx${i}.${farm}`))
    expect(await reasons(m, emails)).toEqual([null, null, null, ...Array(9).fill('domain_velocity')])
    expect(await walletOf(m.advertiser.id)).toMatchObject({ held: '6.00', available: '94.00' })
    expect(await walletOf(m.publisher.id)).toMatchObject({ pending_earnings: '4.80' })
    const unpaid = await queryAs<{ reason: string }>(
      m.publisher.actor,
      'select reason from public.publisher_unpaid_readers()',
    )
    expect(unpaid.map((r) => r.reason)).toEqual(Array(9).fill('domain_velocity'))
    const figures = await queryAs<{ label: string; total: string }>(
      m.advertiser.actor,
      "select label, total::text from public.not_counted_figures($1) where kind = 'subscription'",
      [m.campaignId],
    )
    expect(figures).toEqual([{ label: 'More than 3 readers a day from one email domain', total: '9' }])
    expect(await ledgerMismatches()).toEqual([])
  })

  it('counts a country’s second level as a suffix: mail.farm.co.uk is farm.co.uk, one.co.uk and two.co.uk differ', async () => {
    const domains = await queryAs<{ d: string }>(
      service,
      `select public.email_domain(e) as d from unnest($1::text[]) with ordinality x(e, i) order by i`,
      [
        [
          'a@farm.co.uk',
          'b@mail.farm.co.uk',
          'c@one.co.uk',
          'd@Two.CO.UK.',
          'e@acme.com',
          'f@eu.mx.acme.com',
          'g@acme.io',
        ],
      ],
    )
    expect(domains.map((r) => r.d)).toEqual([
      'farm.co.uk',
      'farm.co.uk',
      'one.co.uk',
      'two.co.uk',
      'acme.com',
      'acme.com',
      'acme.io',
    ])
  })

  it('lets the service role write a paid subscriber row itself: the domain index is computed with its rights', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const email = `one@${freshDomain('acme')}`
    expect(await readerConfirms(m, email)).toMatchObject({ counted: true })
    expect(
      // confirmed_at is a column of the index: the new row version is indexed, so the domain is computed.
      await errorOf(
        service,
        "update public.newsletter_subscriptions set confirmed_at = confirmed_at - interval '1 second' where email = $1",
        [email],
      ),
    ).toBe('')
  })

  it('starts a new day after 24 hours, and counts each source on its own', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const farm = freshDomain('farm')
    expect(
      await reasons(
        m,
        [1, 2, 3, 4].map((i) => `r${i}@${farm}`),
      ),
    ).toEqual([null, null, null, 'domain_velocity'])
    // Another source of the same publisher, same domain: its own 3.
    const db = await testDb()
    const other = await db.query<{ id: string }>(
      `insert into public.audience_sources (publisher_id, name, platform, status) values ($1, 'Second source', 'x', 'approved') returning id`,
      [m.publisher.id],
    )
    const second: Market = { ...m, sourceId: other.rows[0]!.id }
    expect(
      await reasons(
        second,
        [5, 6, 7, 8].map((i) => `r${i}@${farm}`),
      ),
    ).toEqual([null, null, null, 'domain_velocity'])
    // A day later the first source pays that domain again.
    await db.query(
      `update public.newsletter_subscriptions set confirmed_at = confirmed_at - interval '25 hours'
       where audience_source_id = $1 and email like $2`,
      [m.sourceId, `%@${farm}`],
    )
    expect(await reasons(m, [`r9@${farm}`])).toEqual([null])
  })
})

describe('honest journeys still count', () => {
  it('pays three colleagues of one company in a day, each for two newsletters of the same source', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const db = await testDb()
    const second = await db.query<{ id: string }>(
      `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status)
       values ($1, 'Second newsletter', 1, 100, 'active') returning id`,
      [m.advertiser.id],
    )
    const company = freshDomain('acme')
    const colleagues = ['ann', 'bo', 'cy'].map((name) => `${name}@${company}`)
    expect(await reasons(m, colleagues)).toEqual([null, null, null])
    // A reader already paid today takes no second place: the same colleagues subscribe to the other newsletter.
    expect(await reasons(m, colleagues, second.rows[0]!.id)).toEqual([null, null, null])
    // A fourth colleague the same day is the one the limit stops.
    expect(await reasons(m, [`di@${company}`])).toEqual(['domain_velocity'])
  })

  it('never limits webmail readers by their domain', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const tag = randomUUID().slice(0, 6)
    const emails = [
      ...Array.from({ length: 5 }, (_, i) => `gm${i}.${tag}@gmail.com`),
      `ou.${tag}@outlook.com`,
      `ou.${tag}@outlook.fr`,
      `ya.${tag}@yahoo.co.uk`,
      `ya2.${tag}@yahoo.com`,
      `ho.${tag}@hotmail.de`,
      `ic.${tag}@icloud.com`,
      `pr.${tag}@proton.me`,
      `gx.${tag}@gmx.net`,
      `gx2.${tag}@gmx.de`,
      `yx.${tag}@yandex.ru`,
    ]
    expect(await reasons(m, emails)).toEqual(Array(emails.length).fill(null))
  })

  it('words the reason for both sides in the vocabulary table, as the SPA does', async () => {
    const rows = await queryAs<{ label: string; applies_to: string[] }>(
      anon,
      "select label, applies_to from public.not_counted_reasons where code = 'domain_velocity'",
    )
    expect(rows).toEqual([{ label: 'More than 3 readers a day from one email domain', applies_to: ['subscription'] }])
    // src/lib/vocabulary.ts gives the SPA the same words (src/lib/vocabulary.test.ts pins them there).
  })
})

describe("the evidence on an admin's source page", () => {
  it('lists a source’s domains: confirmed, paid, refused by the limit, last seen, and whether webmail', async () => {
    const m = await createMarket({ deposit: 100, price: 1, budget: 100 })
    const farm = freshDomain('farm')
    const tag = randomUUID().slice(0, 6)
    await reasons(m, [...[1, 2, 3, 4, 5].map((i) => `r${i}@${farm}`), `one.${tag}@gmail.com`])
    const rows = await queryAs<{
      domain: string
      freemail: boolean
      confirmed: number
      counted: number
      domain_limited: number
      last_seen: string
    }>(actors.admin, 'select * from public.admin_source_domains($1)', [m.sourceId])
    expect(rows.map(({ last_seen: _, ...r }) => r)).toEqual([
      { domain: farm, freemail: false, confirmed: 5, counted: 3, domain_limited: 2 },
      { domain: 'gmail.com', freemail: true, confirmed: 1, counted: 1, domain_limited: 0 },
    ])
    expect(rows.every((r) => r.last_seen !== null)).toBe(true)
    // Addresses never: only the part after @.
    expect(JSON.stringify(rows)).not.toContain('r1@')
  })

  it('is for admins only, and says what is wrong with the request', async () => {
    const m = await createMarket()
    expect(await errorOf(m.publisher.actor, 'select * from public.admin_source_domains($1)', [m.sourceId])).toBe(
      'Only an admin can do this',
    )
    expect(await errorOf(actors.admin, 'select * from public.admin_source_domains($1, 0)', [m.sourceId])).toBe(
      'Choose between 1 and 365 days',
    )
    expect(await errorOf(actors.admin, 'select * from public.admin_source_domains($1)', [randomUUID()])).toBe(
      'Source not found',
    )
    const publisher = await createUser('publisher')
    expect(await errorOf(publisher.actor, 'select * from public.admin_source_domains($1)', [m.sourceId])).toBe(
      'Only an admin can do this',
    )
  })
})
