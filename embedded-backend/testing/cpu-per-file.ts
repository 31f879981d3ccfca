/**
 * CPU-seconds per test file, for finding where a suite's CPU goes: with CPU_PER_FILE=<file> set, the unit, backend
 * and db projects (vitest.config.ts) load this before each test file and it appends one line per file to <file>:
 * CPU-seconds of the worker process (its threads included: PGlite, the REST layer, the test itself; not child
 * processes such as Deno's functions host or a PostgreSQL server), wall seconds, and the file. The files of a
 * worker run one after another (isolate off), so the first file also carries the worker's module loading.
 *   CPU_PER_FILE=/tmp/cpu.tsv TEST_DATABASE_URL= npx vitest run --project backend --shard=1/2
 */
import { appendFileSync } from 'node:fs'
import { afterAll, expect } from 'vitest'

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}
const out = process.env.CPU_PER_FILE
const startCpu = cpuSeconds()
const startWall = performance.now()
const file = (expect.getState().testPath ?? 'unknown').replace(`${process.cwd()}/`, '')

afterAll(() => {
  if (!out) return
  const wall = (performance.now() - startWall) / 1000
  appendFileSync(out, `${(cpuSeconds() - startCpu).toFixed(2)}\t${wall.toFixed(1)}\t${file}\n`)
})
