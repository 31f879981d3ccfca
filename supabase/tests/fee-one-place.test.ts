// One rule, one place (issue 23): the platform fee is stated once in SQL, in private.publisher_earning; every other
// function asks it. A function body that multiplies by the publisher's share (0.8, 0.80) or the fee (0.2, 0.20)
// itself fails here, on both engines, whatever migration brought it back.
import { describe, expect, it } from 'vitest'
import { testDb } from './helpers/db'

// A number literal that is the share or the fee: 0.8, 0.80, .8, 0.2, 0.20, .2 (not 0.25, 10.8 or 0.800001).
const SHARE_LITERAL = String.raw`(^|[^0-9.])0?\.(8|80|2|20)([^0-9]|$)`

describe('the platform fee in SQL', () => {
  it('the pattern finds each spelling of the share and nothing else', async () => {
    const db = await testDb()
    const samples = {
      'round(price * 0.8, 2)': true,
      'price * (1 - 0.20)': true,
      'fee_rate constant numeric := .2;': true,
      'x * 0.80': true,
      'limit 0.25': false,
      'amount 10.8': false,
      '0.800001': false,
      "interval '20 minutes'": false,
    }
    const { rows } = await db.query<{ sample: string; found: boolean }>(
      'select s as sample, s ~ $2 as found from unnest($1::text[]) s',
      [Object.keys(samples), SHARE_LITERAL],
    )
    expect(Object.fromEntries(rows.map((r) => [r.sample, r.found]))).toEqual(samples)
  })

  it('no function but private.publisher_earning states the share itself', async () => {
    const db = await testDb()
    const { rows } = await db.query<{ fn: string }>(
      `select p.pronamespace::regnamespace::text || '.' || p.proname as fn
       from pg_proc p
       where p.pronamespace::regnamespace::text in ('public', 'private')
         and p.prosrc ~ $1
       order by 1`,
      [SHARE_LITERAL],
    )
    expect(rows.map((r) => r.fn)).toEqual(['private.publisher_earning'])
  })
})
