/**
 * `npm run bench`: prints each benchmark's figures against the budgets in ARCHITECTURE.md.
 * Benchmarks never fail the build on timing; `npm run bench -- bundle` runs one by name.
 */
import os from 'node:os'

const suites: Record<string, () => Promise<{ run: () => Promise<unknown> }>> = {
  bundle: () => import('./bundle'),
  startup: () => import('./startup'),
  backend: () => import('./backend'),
  database: () => import('./database'),
  'magic-link': () => import('./magic-link'),
  dashboards: () => import('./dashboards'),
  scale: () => import('./scale'),
  settlement: () => import('./settlement'),
  lighthouse: () => import('./lighthouse'),
  esp: () => import('./esp'),
  soak: () => import('./soak'),
}

/** Figures differ by up to 2× between machines of this kind: every suite says what it ran on and how busy it was. */
const machine = () => {
  const [one, five] = os.loadavg()
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min); ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}`
}

const only = process.argv.slice(2)
for (const [name, load] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue
  console.log(`\n=== ${name} === (${machine()})`)
  try {
    await (await load()).run()
  } catch (error) {
    console.error(`benchmark ${name} could not run: ${(error as Error).message}`)
  }
  console.log(`    ${name} ended: ${machine()}`)
}
process.exit(0)
