/**
 * The backend re-runs the platform bootstrap on an existing database whenever bootstrap.sql changed, and
 * then migrates. Neither may widen what the API roles can read: migrations hide profiles.email from
 * visitors with column grants, and it must stay hidden after a restart.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../embedded-backend/db/migrate'
import { platformOf } from '../../embedded-backend/db/platform'
import { anon, as, testDb } from './helpers/db'

const bootstrapSql = path.resolve(import.meta.dirname, '../../embedded-backend/db/bootstrap.sql')

describe('restarting on an existing database', () => {
  it('re-running the bootstrap keeps advertisers’ emails hidden from visitors', async () => {
    const db = await testDb()
    // As the backend runs it: as the platform (supabase_admin where postgres is not a superuser, as on hosted).
    const sql = await readFile(bootstrapSql, 'utf8')
    await (await platformOf(db)).as('supabase_admin', (admin) => admin.exec(sql))
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
