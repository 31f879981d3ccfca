/**
 * `npm install`'s postinstall, so the first `npm run dev` on a fresh clone neither runs initdb nor migrates:
 * - the initdb template of the installed PGlite (see snapshot.ts) in node_modules/.cache/growletter: nothing
 *   project-specific is in it, and a new database folder can start as a copy of it (initdb is 3.5–4 s of CPU);
 * - the migrated database, without and with the seed, dumped into supabase/.local exactly as a first start would
 *   dump it (prepareMigratedDumps in open-backend-db.ts), keyed by a hash of the sources that shape it. The first
 *   start loads the seeded one; a change to a migration or to seed.sql makes the next start build a new one.
 * It never fails the install: without these the first backend start does the same work itself.
 */
const started = performance.now()
const seconds = () => ((performance.now() - started) / 1000).toFixed(1)
try {
  const { makeInitdbTemplate } = await import('./snapshot')
  const { dir, made } = await makeInitdbTemplate()
  if (made) console.log(`PGlite initdb template made in ${seconds()} s: ${dir}`)
} catch (error) {
  console.warn(`No PGlite initdb template (the first backend start will run initdb): ${(error as Error).message}`)
}
try {
  const { prepareMigratedDumps } = await import('./open-backend-db')
  const { ensureAuthSchema } = await import('../auth/index')
  const made = await prepareMigratedDumps(ensureAuthSchema)
  if (made.length) console.log(`Migrated database prepared for the first start in ${seconds()} s (supabase/.local)`)
} catch (error) {
  console.warn(`No migrated database prepared (the first backend start will migrate): ${(error as Error).message}`)
}
process.exit(0)
