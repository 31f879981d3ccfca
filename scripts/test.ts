/**
 * `npm test`: every stage in order — lint, type check, unit/integration, backend protocol, database,
 * end to end — naming each as it starts and stopping at the first failure. The backend and database
 * suites run on PGlite and, when PostgreSQL is available (TEST_DATABASE_URL, or Debian's postgresql
 * package, which .ci/run installs), on PostgreSQL too: the two engines' runs of a stage go side by side
 * (PGlite works in-process, PostgreSQL in its own processes), which keeps the suite within its 6 minutes
 * on two cores. Ends with one line: "Tests: N passed, N failed".
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startLocalPostgres, type LocalPostgres } from './local-postgres'

const reports = mkdtempSync(path.join(os.tmpdir(), 'growletter-test-'))
let passed = 0
let failed = 0
let reportCount = 0
const started = Date.now()

type Run = { label?: string; cmd: string[]; env?: Record<string, string>; report?: 'vitest' | 'playwright' }
type Stage = { name: string; runs: Run[] }

function count(run: Run, file: string) {
  if (!existsSync(file)) return
  const json = JSON.parse(readFileSync(file, 'utf8'))
  if (run.report === 'vitest') {
    passed += json.numPassedTests ?? 0
    failed += json.numFailedTests ?? 0
  } else {
    passed += json.stats?.expected ?? 0
    failed += (json.stats?.unexpected ?? 0) + (json.stats?.flaky ?? 0)
  }
}

/** Runs one command; alone it prints as it goes, beside others its output is kept and printed when it ends. */
function execute(run: Run, buffered: boolean): Promise<{ code: number | null; output: string }> {
  const file = path.join(reports, `${++reportCount}.json`)
  const cmd = [...run.cmd]
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...run.env }
  if (run.report === 'vitest') cmd.push('--reporter=default', '--reporter=json', `--outputFile.json=${file}`)
  if (run.report === 'playwright') env.PLAYWRIGHT_JSON_OUTPUT_NAME = file
  console.log(`  $ ${cmd.join(' ')}${run.label ? `   (${run.label})` : ''}`)
  return new Promise((resolve) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => {
      count(run, file)
      resolve({ code, output })
    })
  })
}

async function runStage(stage: Stage, index: number) {
  console.log(`\n▶ Stage ${index}: ${stage.name}`)
  const t0 = Date.now()
  const buffered = stage.runs.length > 1
  const results = await Promise.all(stage.runs.map((run) => execute(run, buffered)))
  results.forEach(({ output }, i) => {
    if (buffered) console.log(`\n── ${stage.runs[i]!.label} ──\n${output}`)
  })
  const seconds = ((Date.now() - t0) / 1000).toFixed(1)
  const bad = results.findIndex((r) => r.code !== 0)
  if (bad !== -1) {
    const which = stage.runs[bad]!.label ? ` (${stage.runs[bad]!.label})` : ''
    console.error(`\n✖ Stage "${stage.name}"${which} failed after ${seconds}s (exit ${results[bad]!.code}).`)
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

/** The same vitest project on PGlite and, when there is one, on PostgreSQL. */
const onBothEngines = (project: string): Run[] => [
  { label: 'PGlite', cmd: ['npx', 'vitest', 'run', '--project', project], report: 'vitest', env: { TEST_DATABASE_URL: '' } },
  ...(databaseUrl
    ? [{ label: 'PostgreSQL', cmd: ['npx', 'vitest', 'run', '--project', project], report: 'vitest' as const, env: { TEST_DATABASE_URL: databaseUrl } }]
    : []),
]

const stages: Stage[] = [
  { name: 'lint', runs: [{ cmd: ['npx', 'eslint', '.'] }] },
  { name: 'type check', runs: [{ cmd: ['npm', 'run', '-s', 'typecheck'] }] },
  { name: 'unit and integration (SPA)', runs: [{ cmd: ['npx', 'vitest', 'run', '--project', 'unit'], report: 'vitest' }] },
  { name: `backend protocol (${databaseUrl ? 'PGlite and PostgreSQL' : 'PGlite'})`, runs: onBothEngines('backend') },
  { name: `database (${databaseUrl ? 'PGlite and PostgreSQL' : 'PGlite'})`, runs: onBothEngines('db') },
  { name: 'end to end (Chromium)', runs: [{ cmd: ['npx', 'playwright', 'test'], report: 'playwright' }] },
]

let ok = true
try {
  for (const [i, stage] of stages.entries()) {
    if (!(await runStage(stage, i + 1))) {
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
