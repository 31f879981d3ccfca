/**
 * The backend re-runs the platform bootstrap on an existing database whenever bootstrap.sql changed, and
 * then migrates. Neither may widen what the API roles can read: migrations hide profiles.email from
 * visitors with column grants, and it must stay hidden after a restart.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrate } from '../local/db/migrate'
import { anon, as, testDb } from './helpers/db'

const bootstrapSql = path.resolve(import.meta.dirname, '../local/db/bootstrap.sql')

describe('restarting on an existing database', () => {
  it('re-running the bootstrap keeps advertisers’ emails hidden from visitors', async () => {
    const db = await testDb()
    await db.exec(await readFile(bootstrapSql, 'utf8'))
    await expect(as(anon, (tx) => tx.query('select email from public.profiles limit 1'))).rejects.toThrow(
      /permission denied/,
    )
    const names = await as(anon, (tx) => tx.query('select full_name from public.profiles limit 1'))
    expect(Array.isArray(names.rows)).toBe(true)
  })

  it('migrating again applies nothing and does not seed twice', async () => {
    const second = await migrate(await testDb(), { seed: true })
    expect(second.applied).toEqual([])
    expect(second.seeded).toBe(false)
  })
})
