/**
 * `npm test`: every stage in order — lint, type check, unit/integration, backend protocol, database,
 * end to end — naming each as it starts and stopping at the first failure. The backend and database
 * suites run on PGlite, then again on PostgreSQL when one is available (TEST_DATABASE_URL, or Debian's
 * postgresql package, which .ci/run installs). Ends with one line: "Tests: N passed, N failed".
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startLocalPostgres, type LocalPostgres } from './local-postgres'

const reports = mkdtempSync(path.join(os.tmpdir(), 'growletter-test-'))
let passed = 0
let failed = 0
const started = Date.now()

type Stage = { name: string; cmd: string[]; env?: Record<string, string>; report?: 'vitest' | 'playwright' }

function count(stage: Stage, file: string) {
  if (!existsSync(file)) return
  const json = JSON.parse(readFileSync(file, 'utf8'))
  if (stage.report === 'vitest') {
    passed += json.numPassedTests ?? 0
    failed += json.numFailedTests ?? 0
  } else {
    passed += json.stats?.expected ?? 0
    failed += (json.stats?.unexpected ?? 0) + (json.stats?.flaky ?? 0)
  }
}

function runStage(stage: Stage, index: number) {
  const file = path.join(reports, `${index}.json`)
  const cmd = [...stage.cmd]
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...stage.env }
  if (stage.report === 'vitest') cmd.push('--reporter=default', '--reporter=json', `--outputFile.json=${file}`)
  if (stage.report === 'playwright') env.PLAYWRIGHT_JSON_OUTPUT_NAME = file
  console.log(`\n▶ Stage ${index}: ${stage.name}\n  $ ${cmd.join(' ')}`)
  const t0 = Date.now()
  const result = spawnSync(cmd[0]!, cmd.slice(1), { stdio: 'inherit', env })
  count(stage, file)
  const seconds = ((Date.now() - t0) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n✖ Stage "${stage.name}" failed after ${seconds}s (exit ${result.status ?? result.signal}).`)
    return false
  }
  console.log(`✔ ${stage.name} (${seconds}s)`)
  return true
}

let postgres: LocalPostgres | null = null
let databaseUrl = process.env.TEST_DATABASE_URL
if (!databaseUrl) {
  try {
    postgres = startLocalPostgres()
    databaseUrl = postgres?.url
  } catch (error) {
    console.warn(`PostgreSQL could not start; database suites run on PGlite only. ${(error as Error).message}`)
  }
}
if (!databaseUrl) console.warn('No PostgreSQL available: database suites run on PGlite only.')

const pg = databaseUrl ? { TEST_DATABASE_URL: databaseUrl } : undefined
const stages: Stage[] = [
  { name: 'lint', cmd: ['npx', 'eslint', '.'] },
  { name: 'type check', cmd: ['npm', 'run', '-s', 'typecheck'] },
  { name: 'unit and integration (SPA)', cmd: ['npx', 'vitest', 'run', '--project', 'unit'], report: 'vitest' },
  { name: 'backend protocol (PGlite)', cmd: ['npx', 'vitest', 'run', '--project', 'backend'], report: 'vitest', env: { TEST_DATABASE_URL: '' } },
  ...(pg ? [{ name: 'backend protocol (PostgreSQL)', cmd: ['npx', 'vitest', 'run', '--project', 'backend'], report: 'vitest' as const, env: pg }] : []),
  { name: 'database (PGlite)', cmd: ['npx', 'vitest', 'run', '--project', 'db'], report: 'vitest', env: { TEST_DATABASE_URL: '' } },
  ...(pg ? [{ name: 'database (PostgreSQL)', cmd: ['npx', 'vitest', 'run', '--project', 'db'], report: 'vitest' as const, env: pg }] : []),
  { name: 'end to end (Chromium)', cmd: ['npx', 'playwright', 'test'], report: 'playwright' },
]

let ok = true
try {
  for (const [i, stage] of stages.entries()) {
    if (!runStage(stage, i + 1)) {
      ok = false
      break
    }
  }
} finally {
  postgres?.stop()
}
console.log(`\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s`)
console.log(`Tests: ${passed} passed, ${failed} failed`)
process.exit(ok ? 0 : 1)
