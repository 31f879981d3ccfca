/**
 * `npm run bench`: prints each benchmark's figures against the budgets in ARCHITECTURE.md.
 * Benchmarks never fail the build on timing; `npm run bench -- bundle` runs one by name.
 */
const suites: Record<string, () => Promise<{ run: () => Promise<unknown> }>> = {
  bundle: () => import('./bundle'),
  startup: () => import('./startup'),
  backend: () => import('./backend'),
  database: () => import('./database'),
  'magic-link': () => import('./magic-link'),
  dashboards: () => import('./dashboards'),
  lighthouse: () => import('./lighthouse'),
}

const only = process.argv.slice(2)
for (const [name, load] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue
  console.log(`\n=== ${name} ===`)
  try {
    await (await load()).run()
  } catch (error) {
    console.error(`benchmark ${name} could not run: ${(error as Error).message}`)
  }
}
process.exit(0)
