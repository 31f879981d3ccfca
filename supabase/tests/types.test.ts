// The committed src/types/database.types.ts must be what `npm run db:types` writes from the migrations.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateTypes } from '../../embedded-backend/db/types'
import { testDb } from './helpers/db'

const committed = path.resolve(import.meta.dirname, '../../src/types/database.types.ts')

describe('database types', () => {
  it('are up to date with the migrations (run `npm run db:types` when this fails)', async () => {
    const generated = await generateTypes(await testDb())
    expect(generated === (await readFile(committed, 'utf8')), 'src/types/database.types.ts is stale').toBe(true)
  })

  it('describe the tables, views and functions the SPA uses', async () => {
    const source = await generateTypes(await testDb())
    for (const name of ['audience_sources:', 'wallets:', 'track_audience_source_click:', 'ensure_wallet_exists:']) {
      expect(source).toContain(name)
    }
    expect(source).toContain("foreignKeyName: 'campaigns_advertiser_id_fkey'")
    expect(source).not.toContain('post_ledger:')
  })
})
