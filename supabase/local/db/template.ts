/**
 * `npm install`'s postinstall: makes the initdb template of the installed PGlite (see snapshot.ts) in
 * node_modules/.cache/growletter, so the first `npm run dev` on a fresh clone copies a data directory
 * instead of running initdb (3.5–4 s of CPU). Nothing project-specific is in it. It never fails the
 * install: without it the first start runs initdb, as it would anyway.
 */
const started = performance.now()
try {
  const { makeInitdbTemplate } = await import('./snapshot')
  const { dir, made } = await makeInitdbTemplate()
  if (made) console.log(`PGlite initdb template made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dir}`)
} catch (error) {
  console.warn(`No PGlite initdb template (the first backend start will run initdb): ${(error as Error).message}`)
}
process.exit(0)
