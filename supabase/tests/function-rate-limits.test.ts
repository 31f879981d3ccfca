// The edge functions' rate limits live in the database (take_function_allowance), so every isolate of a function on
// hosted Supabase counts against one number. Each rule allows exactly its limit per window and names the wait after.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, service, user } from './helpers/db'
import { testDb } from './helpers/db'

const RULES: [rule: string, limit: number, windowSeconds: number][] = [
  ['subscribe-ip', 30, 15 * 60],
  ['verify-subscription-ip', 60, 5 * 60],
  ['decline-subscription-ip', 60, 5 * 60],
  ['backup-confirmation-ip', 20, 60 * 60],
  ['backup-confirmation-inbox', 3, 60 * 60],
  ['esp-lookup-user', 30, 60],
]

const take = async (rule: string, subject: string) =>
  (
    await queryAs<{ wait: number }>(service, 'select public.take_function_allowance($1, $2) as wait', [rule, subject])
  )[0]!.wait

describe('take_function_allowance', () => {
  it.each(RULES)(
    '%s allows %i attempts per subject, then names the wait (window %i s)',
    async (rule, limit, window) => {
      const subject = `subject-${randomUUID()}`
      const waits: number[] = []
      for (let i = 0; i < limit; i++) waits.push(await take(rule, subject))
      expect(waits.every((w) => w === 0)).toBe(true)
      const refused = await take(rule, subject)
      expect(refused).toBeGreaterThan(0)
      expect(refused).toBeLessThanOrEqual(window)
      // Another subject, and the same subject under another rule, have their own count.
      expect(await take(rule, `other-${randomUUID()}`)).toBe(0)
    },
  )

  it('counts again once the window has passed', async () => {
    const subject = `inbox-${randomUUID()}@example.com`
    for (let i = 0; i < 3; i++) await take('backup-confirmation-inbox', subject)
    expect(await take('backup-confirmation-inbox', subject)).toBeGreaterThan(0)
    const db = await testDb()
    await db.query(
      `update private.rate_limits set window_start = window_start - interval '61 minutes' where key = $1`,
      [`fn:backup-confirmation-inbox:${subject}`],
    )
    expect(await take('backup-confirmation-inbox', subject)).toBe(0)
  })

  it('refuses a rule it does not know and an empty subject, so no caller widens or skips a limit', async () => {
    expect(await errorOf(service, `select public.take_function_allowance('no-such-rule', 'x')`)).toBe(
      'Unknown rate limit rule no-such-rule',
    )
    expect(await errorOf(service, `select public.take_function_allowance('subscribe-ip', '')`)).toBe(
      'A rate limit needs whom it counts',
    )
  })

  it('is the edge functions’ alone: anon and signed-in callers may not execute it', async () => {
    const someone = user(randomUUID(), 'someone@example.com')
    for (const actor of [anon, someone])
      expect(await errorOf(actor, `select public.take_function_allowance('subscribe-ip', '1.2.3.4')`)).toMatch(
        /permission denied/,
      )
  })
})
