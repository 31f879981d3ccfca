/**
 * Writes the schema catalog (embedded-backend/db/schema-catalog.ts) of a database migrated without the seed, as
 * JSON: `tsx scripts/schema-catalog.ts <out.json> [migrations dir]`, on PGlite, or on the PostgreSQL server that
 * TEST_DATABASE_URL names. The squash's fixtures (supabase/tests/fixtures/pre-squash-catalog.*.json) were made
 * with it from the 38 migrations before the baseline.
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readSchemaCatalog } from '../embedded-backend/db/schema-catalog'
import { freshDb } from '../supabase/tests/helpers/fresh-db'

const [out, migrationsDir] = process.argv.slice(2)
if (!out) {
  console.error('Usage: tsx scripts/schema-catalog.ts <out.json> [migrations dir]')
  process.exit(2)
}
const fresh = await freshDb({ migrationsDir: migrationsDir && path.resolve(migrationsDir) })
try {
  await writeFile(out, `${JSON.stringify(await readSchemaCatalog(fresh.db), null, 1)}\n`)
  console.log(`Wrote ${out} (${fresh.engine})`)
} finally {
  await fresh.dispose()
}
