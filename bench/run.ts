/**
 * `npm run bench`: prints each benchmark's figures against the budgets in ARCHITECTURE.md.
 * Benchmarks never fail the build on timing; `npm run bench -- bundle` runs one by name.
 *
 * Several suites run one after another, each in a process of its own: the backend suites start the backend in
 * their own process, and after the bundle and startup suites in the same process (a Vite build, a browser, five
 * backends) the REST select row read 50–53% in two full runs where the suite alone read 60–65%.
 */
import { spawnSync } from 'node:child_process'
import os from 'node:os'

const suites: Record<string, () => Promise<{ run: () => Promise<unknown> }>> = {
  bundle: () => import('./bundle'),
  startup: () => import('./startup'),
  backend: () => import('./backend'),
  database: () => import('./database'),
  'magic-link': () => import('./magic-link'),
  embed: () => import('./embed'),
  dashboards: () => import('./dashboards'),
  scale: () => import('./scale'),
  settlement: () => import('./settlement'),
  engaged: () => import('./engaged-pay'),
  lighthouse: () => import('./lighthouse'),
  esp: () => import('./esp'),
  edge: () => import('./edge-limits'),
  soak: () => import('./soak'),
}

/** Figures differ by up to 2× between machines of this kind: every suite says what it ran on and how busy it was. */
const machine = () => {
  const [one, five] = os.loadavg()
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min); ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}`
}

const only = process.argv.slice(2)
const chosen = Object.keys(suites).filter((name) => only.length === 0 || only.includes(name))
if (chosen.length > 1) {
  for (const name of chosen) {
    // The same Node with the same loader (tsx's flags are in execArgv), this file, one suite.
    spawnSync(process.execPath, [...process.execArgv, import.meta.filename, name], { stdio: 'inherit' })
  }
  process.exit(0)
}
for (const [name, load] of Object.entries(suites)) {
  if (!chosen.includes(name)) continue
  console.log(`\n=== ${name} === (${machine()})`)
  try {
    await (await load()).run()
  } catch (error) {
    console.error(`benchmark ${name} could not run: ${(error as Error).message}`)
  }
  console.log(`    ${name} ended: ${machine()}`)
}
process.exit(0)
