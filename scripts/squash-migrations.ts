/**
 * Run once, on 2026-11-25: replaced the 38 migrations in supabase/migrations by 13 baseline files, one per domain,
 * rendered from the schema the 38 built (on PGlite, without the seed) with the changes of
 * supabase/tests/helpers/squash-changes.ts. docs/decisions.md says why that was safe; supabase/tests/schema.test.ts
 * proves the result equal to the old schema but for those changes. Kept in the history, not in the tree:
 * `tsx scripts/squash-migrations.ts <folder of the 38 migrations, e.g. git archive a66724a supabase/migrations> [out folder]`.
 */
import { readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { supabaseDir } from '../supabase/local/db/migrate'
import { readSchemaCatalog } from '../supabase/local/db/schema-catalog'
import { DOMAINS, renderSchemaSql, type Domain } from '../supabase/local/db/schema-sql'
import { freshDb } from '../supabase/tests/helpers/fresh-db'
import { applySquashChanges, KICK_EDGE_FUNCTION_SQL } from '../supabase/tests/helpers/squash-changes'

const dir = path.join(supabaseDir, 'migrations')
const source = process.argv[2] ?? dir
const old = (await readdir(source)).filter((f) => f.endsWith('.sql')).sort()
const header = (domain: Domain) => `-- Baseline, ${domain.title.toLowerCase()}: ${domain.about}.
--
-- One of the 13 files that replaced the ${old.length} migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.
`

const fresh = await freshDb({ serverUrl: '', migrationsDir: source === dir ? undefined : source })
let files: Map<string, string>
try {
  await fresh.db.exec(KICK_EDGE_FUNCTION_SQL)
  files = renderSchemaSql(applySquashChanges(await readSchemaCatalog(fresh.db)), { header, createFunction: 'create function' })
} finally {
  await fresh.dispose()
}
const out = process.argv[3] ?? dir
for (const file of (await readdir(out)).filter((f) => f.endsWith('.sql'))) await rm(path.join(out, file))
for (const [index, domain] of DOMAINS.entries()) {
  const name = `20260101${String(index + 1).padStart(4, '0')}00_${domain.slug}.sql`
  await writeFile(path.join(out, name), files.get(domain.slug)!)
  console.log(`Wrote supabase/migrations/${name}`)
}
