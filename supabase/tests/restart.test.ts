/**
 * The backend re-runs the platform bootstrap on every start. A restart must never widen what the API roles
 * may read: migrations hide profiles.email from visitors with column grants, and they must stay hidden.
 */
import { describe, expect, it } from 'vitest'
import { migrate } from '../local/db/migrate'
import { anon, as, testDb } from './helpers/db'

describe('restarting on an existing database', () => {
  it('keeps advertisers’ emails hidden from visitors', async () => {
    const db = await testDb()
    const second = await migrate(db, { seed: true })
    expect(second.applied).toEqual([])
    expect(second.seeded).toBe(false)
    await expect(as(anon, (tx) => tx.query('select email from public.profiles limit 1'))).rejects.toThrow(
      /permission denied/,
    )
    const names = await as(anon, (tx) => tx.query('select full_name from public.profiles limit 1'))
    expect(Array.isArray(names.rows)).toBe(true)
  })
})
