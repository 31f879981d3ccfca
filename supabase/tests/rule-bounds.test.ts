// One rule, one place: the bounds the database enforces are the constants the SPA and the edge functions import
// (supabase/functions/_shared/rules). Each SQL place that holds a bound (a table's check, a function's guard) is
// called just inside and just outside it, in transactions that are rolled back, so a bound changed on one side
// only fails here. The words the database raises are compared with the module's words too.
import { randomUUID } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEPOSIT_SQL_MESSAGE, MAX_DEPOSIT, MIN_DEPOSIT } from '../functions/_shared/rules/deposit.ts'
import {
  DISPUTE_ANSWER_HOURS,
  DISPUTE_ANSWER_MESSAGES,
  DISPUTE_REASON_MESSAGES,
  MAX_DISPUTE_ANSWER_LENGTH,
  MAX_DISPUTE_REASON_LENGTH,
  MAX_EVIDENCE_LINK_LENGTH,
  MAX_EVIDENCE_LINKS,
  MIN_DISPUTE_ANSWER_LENGTH,
  MIN_DISPUTE_REASON_LENGTH,
  evidenceLinksProblem,
} from '../functions/_shared/rules/dispute.ts'
import {
  MAX_TRANSFER_REFERENCE_LENGTH,
  MIN_PAYOUT,
  MIN_TRANSFER_REFERENCE_LENGTH,
  PAYOUT_MESSAGES,
  TRANSFER_REFERENCE_MESSAGES,
} from '../functions/_shared/rules/payout.ts'
import { MAX_PRICE_PER_SUBSCRIBER, MIN_PRICE_PER_SUBSCRIBER, PRICE_MESSAGES } from '../functions/_shared/rules/price.ts'
import {
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_URL_MESSAGES,
  webhookUrlProblem,
} from '../functions/_shared/rules/webhook-url.ts'
import { BLOCKED_RANGES, isPublicIp, parseIp } from '../functions/_shared/public-address.ts'
import { service, testDb } from './helpers/db'
import { actors, attempt, createUser, ids, ledgerMismatches, payoutAccount, type NewUser } from './helpers/fixtures'

const CENT = 0.01

afterEach(async () => {
  expect(await ledgerMismatches()).toEqual([])
})

class Rollback extends Error {}

/** Runs a statement as the tables' owner (no function in between) and rolls it back: '' when it succeeded. */
async function ownerError(sql: string, params: unknown[]): Promise<string> {
  const db = await testDb()
  try {
    await db.transaction(async (tx) => {
      await tx.query(sql, params)
      throw new Rollback()
    })
  } catch (error) {
    if (error instanceof Rollback) return ''
    return (error as Error).message
  }
  return ''
}

/** The error of one call as the actor, rolled back either way ('' when it succeeded). */
const callError = async (...args: Parameters<typeof attempt>) => (await attempt(...args)).error ?? ''

describe('deposit limits', () => {
  let advertiser: NewUser
  beforeAll(async () => {
    advertiser = await createUser('advertiser')
  })

  const session = () => `cs_test_${randomUUID().replace(/-/g, '')}`
  const openDeposit = (amount: number) =>
    callError(service, "select public.open_deposit($1, $2, $3, now() + interval '1 hour')", [
      advertiser.id,
      amount,
      session(),
    ])
  const creditDeposit = (amount: number) =>
    callError(service, 'select public.credit_deposit($1, $2, $3)', [advertiser.id, amount, session()])
  const insertDeposit = (amount: number) =>
    ownerError('insert into public.deposits (user_id, amount, stripe_session_id) values ($1, $2, $3)', [
      advertiser.id,
      amount,
      session(),
    ])

  it.each([
    ['open_deposit', openDeposit],
    ['credit_deposit', creditDeposit],
  ])('%s accepts MIN_DEPOSIT to MAX_DEPOSIT and refuses a cent beyond, in the module’s words', async (_, call) => {
    expect(await call(MIN_DEPOSIT)).toBe('')
    expect(await call(MAX_DEPOSIT)).toBe('')
    expect(await call(MIN_DEPOSIT - CENT)).toBe(DEPOSIT_SQL_MESSAGE)
    expect(await call(MAX_DEPOSIT + CENT)).toBe(DEPOSIT_SQL_MESSAGE)
  })

  it('deposits.amount’s check holds the same bounds', async () => {
    expect(await insertDeposit(MIN_DEPOSIT)).toBe('')
    expect(await insertDeposit(MAX_DEPOSIT)).toBe('')
    expect(await insertDeposit(MIN_DEPOSIT - CENT)).toMatch(/violates check constraint/)
    expect(await insertDeposit(MAX_DEPOSIT + CENT)).toMatch(/violates check constraint/)
  })
})

describe('payout minimum', () => {
  it('request_payout accepts MIN_PAYOUT and refuses a cent less, in the module’s words', async () => {
    const publisher = await createUser('publisher')
    await payoutAccount(publisher.id)
    const db = await testDb()
    // Exactly the minimum is available, so the call at the bound can only fail on the bound.
    await db.query('select private.post_ledger($1, $2, $3, $4, $5, $6)', [
      publisher.id,
      MIN_PAYOUT,
      'earning',
      'completed',
      'Test',
      `e-${publisher.id}`,
    ])
    const request = (amount: number) => callError(publisher.actor, 'select public.request_payout($1)', [amount])
    expect(await request(MIN_PAYOUT)).toBe('')
    expect(await request(MIN_PAYOUT - CENT)).toBe(PAYOUT_MESSAGES.belowMinimum)
  })
})

describe('transfer reference', () => {
  it('admin_mark_payout_paid takes 3 to 200 characters, in the module’s words', async () => {
    const pay = (reference: string) =>
      callError(actors.admin, 'select public.admin_mark_payout_paid($1, $2)', [ids.payoutRequested, reference])
    const lengthWords: string[] = Object.values(TRANSFER_REFERENCE_MESSAGES)
    expect(await pay('x'.repeat(MIN_TRANSFER_REFERENCE_LENGTH - 1))).toBe(TRANSFER_REFERENCE_MESSAGES.tooShort)
    expect(await pay('x'.repeat(MAX_TRANSFER_REFERENCE_LENGTH + 1))).toBe(TRANSFER_REFERENCE_MESSAGES.tooLong)
    // At either bound the length passes; whatever else the call says (the seed's payout may be paid by now) is
    // not about the length.
    expect(lengthWords).not.toContain(await pay('x'.repeat(MIN_TRANSFER_REFERENCE_LENGTH)))
    expect(lengthWords).not.toContain(await pay('x'.repeat(MAX_TRANSFER_REFERENCE_LENGTH)))
  })
})

describe('dispute description', () => {
  it('open_dispute takes 10 to 2,000 characters, in the module’s words', async () => {
    const open = (reason: string) =>
      callError(actors.advertiser, 'select public.open_dispute($1, null, null)', [reason])
    expect(await open('x'.repeat(MIN_DISPUTE_REASON_LENGTH - 1))).toBe(DISPUTE_REASON_MESSAGES.tooShort)
    expect(await open('x'.repeat(MAX_DISPUTE_REASON_LENGTH + 1))).toBe(DISPUTE_REASON_MESSAGES.tooLong)
    // Inside the bounds the description passes and the next check speaks: nothing was flagged.
    expect(await open('x'.repeat(MIN_DISPUTE_REASON_LENGTH))).toBe('Flag either subscribers or a source')
    expect(await open('x'.repeat(MAX_DISPUTE_REASON_LENGTH))).toBe('Flag either subscribers or a source')
  })
})

describe("the publisher's answer to a dispute", () => {
  let disputeId: string
  beforeAll(async () => {
    const db = await testDb()
    // A dispute about the demo publisher's source, inserted as the owner: only the answer's bounds are at stake here.
    disputeId = (
      await db.query<{ id: string }>(
        `insert into public.disputes (advertiser_id, publisher_id, audience_source_id, kind, reason)
         values ($1, $2, $3, 'source', 'Pinned bounds for the answer') returning id`,
        [ids.advertiser, ids.publisher, ids.sourceApproved],
      )
    ).rows[0]!.id
  })
  const answer = (text: string, links: string[] | null = null) =>
    callError(actors.publisher, 'select public.answer_dispute($1, $2, $3)', [disputeId, text, links])

  it(`opens ${DISPUTE_ANSWER_HOURS} hours to answer`, async () => {
    const db = await testDb()
    const r = await db.query<{ hours: string }>(
      'select (extract(epoch from answer_due_at - created_at) / 3600)::text as hours from public.disputes where id = $1',
      [disputeId],
    )
    expect(Number(r.rows[0]!.hours)).toBe(DISPUTE_ANSWER_HOURS)
  })

  it('takes 20 to 4,000 characters and up to 5 https links of up to 500 characters, in the module’s words', async () => {
    expect(await answer('x'.repeat(MIN_DISPUTE_ANSWER_LENGTH - 1))).toBe(DISPUTE_ANSWER_MESSAGES.tooShort)
    expect(await answer('x'.repeat(MAX_DISPUTE_ANSWER_LENGTH + 1))).toBe(DISPUTE_ANSWER_MESSAGES.tooLong)
    expect(await answer('x'.repeat(MIN_DISPUTE_ANSWER_LENGTH))).toBe('')
    expect(await answer('x'.repeat(MAX_DISPUTE_ANSWER_LENGTH))).toBe('')
    const text = 'x'.repeat(MIN_DISPUTE_ANSWER_LENGTH)
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}`)
    expect(await answer(text, links(MAX_EVIDENCE_LINKS))).toBe('')
    expect(await answer(text, links(MAX_EVIDENCE_LINKS + 1))).toBe(DISPUTE_ANSWER_MESSAGES.tooManyLinks)
    const long = (length: number) => `https://example.com/${'x'.repeat(length - 'https://example.com/'.length)}`
    expect(await answer(text, [long(MAX_EVIDENCE_LINK_LENGTH)])).toBe('')
    expect(await answer(text, [long(MAX_EVIDENCE_LINK_LENGTH + 1)])).toBe(DISPUTE_ANSWER_MESSAGES.linkTooLong)
    // The link pattern: the module and the database accept and refuse the same addresses.
    for (const link of [
      'https://x.com/pat/status/1',
      'https://youtu.be/abc?t=12',
      'https://example.com',
      'https://example.com#top',
      'http://example.com',
      'https://localhost/x',
      'ftp://example.com',
      'https://exa mple.com',
      'example.com/post',
    ]) {
      expect(await answer(text, [link]), link).toBe(evidenceLinksProblem([link]) ?? '')
    }
  })
})

describe('price per subscriber', () => {
  const insertCampaign = (price: number) =>
    ownerError(
      `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total) values ($1, 'Pinned price', $2, 100)`,
      [ids.advertiser, price],
    )

  it('accepts MIN to MAX and refuses a cent beyond in the rule’s words, on insert and on a price change', async () => {
    expect(await insertCampaign(MIN_PRICE_PER_SUBSCRIBER)).toBe('')
    expect(await insertCampaign(MAX_PRICE_PER_SUBSCRIBER)).toBe('')
    expect(await insertCampaign(MIN_PRICE_PER_SUBSCRIBER - CENT)).toBe(PRICE_MESSAGES.tooLow)
    expect(await insertCampaign(MAX_PRICE_PER_SUBSCRIBER + CENT)).toBe(PRICE_MESSAGES.tooHigh)
    const change = (price: number) =>
      ownerError(`update public.campaigns set price_per_subscriber = $2 where advertiser_id = $1`, [
        ids.advertiser,
        price,
      ])
    expect(await change(MAX_PRICE_PER_SUBSCRIBER + CENT)).toBe(PRICE_MESSAGES.tooHigh)
  })

  it('campaigns.price_per_subscriber’s check holds the same bounds without the trigger', async () => {
    const db = await testDb()
    await db.exec('alter table public.campaigns disable trigger campaigns_price_in_words')
    try {
      expect(await insertCampaign(MIN_PRICE_PER_SUBSCRIBER)).toBe('')
      expect(await insertCampaign(MAX_PRICE_PER_SUBSCRIBER)).toBe('')
      expect(await insertCampaign(MIN_PRICE_PER_SUBSCRIBER - CENT)).toMatch(/violates check constraint/)
      expect(await insertCampaign(MAX_PRICE_PER_SUBSCRIBER + CENT)).toMatch(/violates check constraint/)
    } finally {
      await db.exec('alter table public.campaigns enable trigger campaigns_price_in_words')
    }
  })
})

describe('webhook URL', () => {
  const problem = async (url: string) => {
    const db = await testDb()
    return (await db.query<{ p: string | null }>('select private.webhook_url_problem($1) as p', [url])).rows[0]!.p
  }

  it('webhook_url_problem refuses what the form refuses, in the module’s words', async () => {
    for (const url of ['', '   ', 'example.com/hook', 'http://example.com/hook', 'ftp://example.com/hook']) {
      expect(await problem(url)).toBe(webhookUrlProblem(url))
    }
    const longest = `https://example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH - 'https://example.com/'.length)}`
    expect(await problem(longest)).toBeNull()
    expect(webhookUrlProblem(longest)).toBeNull()
    expect(await problem(`${longest}a`)).toBe(WEBHOOK_URL_MESSAGES.tooLong)
    expect(webhookUrlProblem(`${longest}a`)).toBe(WEBHOOK_URL_MESSAGES.tooLong)
  })
})

describe('public addresses', () => {
  /** Both ends of a range and the addresses just outside it, as text. */
  function probes(range: string): string[] {
    const [address, bitsText] = range.split('/')
    const v6 = address!.includes(':')
    const width = v6 ? 128 : 32
    const bytes = parseIp(address!)!
    const first = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n)
    const last = first | ((1n << BigInt(width - Number(bitsText))) - 1n)
    const max = (1n << BigInt(width)) - 1n
    const text = (n: bigint) =>
      v6
        ? Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':')
        : Array.from({ length: 4 }, (_, i) => ((n >> BigInt(24 - 8 * i)) & 0xffn).toString()).join('.')
    return [first - 1n, first, last, last + 1n].filter((n) => n >= 0n && n <= max).map(text)
  }

  it('private.is_non_public_address and deliver-webhooks’ isPublicIp agree at every range’s edges', async () => {
    const db = await testDb()
    // The ranges the database's function names (read from its current text) and the module's: probing only one
    // side's list would miss a range the other side has and this one dropped.
    const definition = await db.query<{ def: string }>(
      "select pg_get_functiondef('private.is_non_public_address(inet)'::regprocedure) as def",
    )
    const sqlRanges = [...definition.rows[0]!.def.matchAll(/'([0-9a-f.:]+\/\d+)'/gi)].map((m) => m[1]!)
    expect(sqlRanges.length).toBeGreaterThan(10)
    const ranges = new Set([...sqlRanges, ...BLOCKED_RANGES.v4, BLOCKED_RANGES.v6Global, ...BLOCKED_RANGES.v6])
    const addresses = [...[...ranges].flatMap(probes), '8.8.8.8', '2606:4700::1', '::1', '::ffff:10.0.0.1']
    const disagreements: string[] = []
    for (const address of addresses) {
      const r = await db.query<{ blocked: boolean }>('select private.is_non_public_address($1::inet) as blocked', [
        address,
      ])
      if (r.rows[0]!.blocked !== !isPublicIp(address)) disagreements.push(address)
    }
    expect(disagreements).toEqual([])
    // The probes do reach both sides of the line.
    expect(addresses.filter((a) => isPublicIp(a)).length).toBeGreaterThan(10)
    expect(addresses.filter((a) => !isPublicIp(a)).length).toBeGreaterThan(10)
  })
})
