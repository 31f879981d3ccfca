/**
 * `npm test`: lint, type check, unit/integration, backend protocol, database and end to end, stopping a lane at
 * its first failure. Four lanes run side by side:
 *   checks:  ESLint, import cycles, formatting and the type check of each TypeScript project (five processes at once)
 *   unit:    unit and integration (two workers) → database (and beside it the hosted lane)
 *   backend: backend protocol (PGlite in two halves, PostgreSQL)
 *   browser: end to end (two Playwright workers; builds the app and starts its own backend)
 * The end-to-end suite is the largest: 217 of the 509 CPU-seconds of a run with a core kept busy (Chromium's
 * processes most of it), so it starts at once and the other lanes fill the cores. Four lanes oversubscribe two
 * cores, more so when CI has another process keeping a core busy (measured: two lanes took 404 s with a core kept
 * busy, the checks lane being the long one). What that buys against the other process depends on where it runs:
 * Linux schedules by session when `sched_autogroup_enabled` is 1 (this machine), so a busy process in our session
 * competes thread by thread and takes ~1/6 of the cores (562 CPU-seconds in 336 s), while one in a session of its
 * own takes its session's share (586 in 458 s). Either way the run's wall time follows its CPU-seconds, which is
 * what the stages report. So no stage may depend on speed: every timeout in the suites is a hang detector, and
 * tests wait for conditions.
 * The backend and database suites run on PGlite and, when PostgreSQL is available (TEST_DATABASE_URL, or
 * Debian's postgresql package, which .ci/run installs), on PostgreSQL too, the two engines side by side (PGlite
 * works in-process, PostgreSQL in its own processes). Each stage's output is printed when it ends, with its
 * time. Ends with one line: "Tests: N passed, N failed".
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startLocalPostgres, type LocalPostgres } from './local-postgres'
import { ProcessCpu } from './process-cpu'

const reports = mkdtempSync(path.join(os.tmpdir(), 'growletter-test-'))
let passed = 0
let failed = 0
let reportCount = 0
let totalCpuSeconds = 0
const started = Date.now()
// What every stage's processes used, the browser's included (see process-cpu.ts for why `time` is not enough).
const processCpu = new ProcessCpu()
processCpu.start()

// The tools' own executables rather than `npx <tool>` or `npm run`: each npx or npm start costs about half a
// CPU-second before the tool runs (measured 0.4–0.6 per call with scripts/cpu-of.ts), and a run starts ten.
const bin = (tool: string) => path.join('node_modules', '.bin', tool)
const packageScripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>

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

/** Runs one command, keeping its output for the stage to print when it ends. */
function execute(run: Run): Promise<{ code: number | null; output: string; cpuSeconds: number }> {
  const file = path.join(reports, `${++reportCount}.json`)
  const cpuFile = path.join(reports, `${reportCount}.cpu`)
  const cmd = [...run.cmd]
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...run.env }
  if (run.report === 'vitest') cmd.push('--reporter=default', '--reporter=json', `--outputFile.json=${file}`)
  if (run.report === 'playwright') env.PLAYWRIGHT_JSON_OUTPUT_NAME = file
  console.log(`  $ ${cmd.join(' ')}${run.label ? `   (${run.label})` : ''}`)
  return new Promise((resolve) => {
    // bash's `time` reports the CPU the command and every process it waited for used (user + system): what a
    // stage costs whatever else the machine is doing, where its wall time depends on the machine's load. It misses
    // processes nobody reaped (the browser's), which ProcessCpu reads from /proc; a run is charged the larger.
    const timed = [
      'bash',
      '-c',
      'TIMEFORMAT="%U %S"; { time "$@" 2>&3; } 3>&2 2>"$GROWLETTER_CPU_FILE"',
      'timed',
      ...cmd,
    ]
    const child = spawn(timed[0]!, timed.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, GROWLETTER_CPU_FILE: cpuFile },
    })
    let output = ''
    child.stdout?.on('data', (chunk) => (output += chunk))
    child.stderr?.on('data', (chunk) => (output += chunk))
    const label = `run ${reportCount}`
    processCpu.track(child.pid, label)
    child.on('close', (code) => {
      count(run, file)
      const cpu = existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number) : []
      const reaped = cpu.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0)
      // Each way misses something (short-lived processes between two reads; processes nobody reaped): the larger.
      resolve({ code, output, cpuSeconds: Math.max(reaped, processCpu.of(label)) })
    })
  })
}

async function runStage(stage: Stage, lane: string) {
  console.log(`▶ [${lane}] ${stage.name}`)
  const t0 = Date.now()
  // Lanes run side by side, so every run's output is kept and printed as one block when its stage ends.
  const results = await Promise.all(stage.runs.map((run) => execute(run)))
  const seconds = ((Date.now() - t0) / 1000).toFixed(1)
  results.forEach(({ output }, i) => {
    const label = stage.runs[i]!.label
    console.log(`\n── [${lane}] ${stage.name}${label ? ` (${label})` : ''} ──\n${output.trimEnd()}`)
  })
  const bad = results.findIndex((r) => r.code !== 0)
  if (bad !== -1) {
    const which = stage.runs[bad]!.label ? ` (${stage.runs[bad]!.label})` : ''
    console.error(`\n✖ [${lane}] Stage "${stage.name}"${which} failed after ${seconds}s (exit ${results[bad]!.code}).`)
    return false
  }
  const cpu = results.reduce((a, r) => a + r.cpuSeconds, 0)
  totalCpuSeconds += cpu
  console.log(`✔ [${lane}] ${stage.name} (${seconds}s, ${cpu.toFixed(0)} CPU-seconds)`)
  return true
}

/** A lane's stages one after another; false at the first that fails. */
async function runLane(lane: string, stages: Stage[]) {
  for (const stage of stages) if (!(await runStage(stage, lane))) return false
  return true
}

// Two local servers, one for the backend suite and one for the database suite: they run at the same time and
// both create the cluster-wide API roles while migrating, which one server would have them race for.
const servers: LocalPostgres[] = []
function localServer(port: number): string | undefined {
  try {
    const server = startLocalPostgres(port)
    if (server) servers.push(server)
    return server?.url
  } catch (error) {
    console.warn(`PostgreSQL could not start; database suites run on PGlite only. ${(error as Error).message}`)
    return undefined
  }
}
let databaseUrl = process.env.TEST_DATABASE_URL
let dbSuiteUrl = databaseUrl
if (!databaseUrl) {
  // Below 32768, outside the range of outgoing connections' local ports (as e2e/ports.ts explains).
  databaseUrl = localServer(25433)
  dbSuiteUrl = databaseUrl && localServer(25434)
}
if (!databaseUrl) console.warn('No PostgreSQL available: database suites run on PGlite only.')

/**
 * The backend files that run on the engine TEST_DATABASE_URL chooses (they start their backend through
 * rest-fixture.ts or trust-backend.ts, or read the variable). The others always use an in-memory PGlite:
 * the PostgreSQL run leaves them out instead of running them a second time on PGlite. The backend project's tests
 * live beside the code they test (vitest.config.ts), so every folder it collects from is searched.
 */
function filesOnTheEngine(dirs: string[]): string[] {
  return dirs
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name)))
    .filter((file) => file.endsWith('.test.ts') && !file.split(path.sep).includes('node_modules'))
    .filter((file) =>
      /TEST_DATABASE_URL|from '[./]*(testing\/|embedded-backend\/testing\/)?(rest-fixture|trust-backend)'/.test(
        readFileSync(file, 'utf8'),
      ),
    )
    .sort()
}

/**
 * The same vitest project on PGlite and, when there is one, on PostgreSQL (optionally only `files` there).
 * `shards` splits the PGlite run's files over that many processes: each works one file at a time.
 */
const onBothEngines = (project: string, { files = [] as string[], shards = 1, url = databaseUrl } = {}): Run[] => [
  ...Array.from({ length: shards }, (_, i) => ({
    label: shards > 1 ? `${project}, PGlite ${i + 1}/${shards}` : `${project}, PGlite`,
    cmd: [bin('vitest'), 'run', '--project', project, ...(shards > 1 ? [`--shard=${i + 1}/${shards}`] : [])],
    report: 'vitest' as const,
    env: { TEST_DATABASE_URL: '' },
  })),
  ...(url
    ? [
        {
          label: `${project}, PostgreSQL`,
          cmd: [bin('vitest'), 'run', '--project', project, ...files],
          report: 'vitest' as const,
          env: { TEST_DATABASE_URL: url },
        },
      ]
    : []),
]

const backendRuns = onBothEngines('backend', {
  files: filesOnTheEngine(['embedded-backend', 'supabase/functions', 'supabase/tests/api']),
  shards: 2,
})
// The parts of package.json's "lint" (oxlint, ESLint, the import-cycle check, oxfmt --check) and the type check (one
// process per project) run as five processes, not one after another: each is single-threaded, and on a busy machine
// a lane of one process gets one process's share of the cores. Run one after another they took 274 s of wall time
// for 71 CPU-seconds with a core kept busy, and were the longest lane.
const checks: Stage[] = [
  {
    name: 'lint and type check',
    runs: [
      // package.json's "lint" runs oxlint (native; .oxlintrc.json), and ESLint only for what oxlint lacks: the React
      // Compiler's rules, our own rules and no barrel files on src/, no-undef on the 5 JavaScript files
      // (eslint.config.js). Same rules as before, each in one tool: ESLint on all 917 files took 54.4 CPU-seconds,
      // oxlint + ESLint on src/ 0.3 + 31.8, measured alternately at load 14 (29.9 alone on a quiet machine).
      { label: 'oxlint', cmd: ['node', 'node_modules/oxlint/bin/oxlint'] },
      { label: 'ESLint', cmd: [bin('eslint'), '.'] },
      // package.json's "lint:cycles" (oxlint's import/no-cycle with .oxlintrc.cycles.json) as npm would run it, without
      // npm around it: one definition of the check. It replaced dpdm, 6.5 → 1.9 CPU-seconds for the same files.
      {
        label: 'import cycles',
        cmd: ['bash', '-c', packageScripts['lint:cycles']!],
        env: { PATH: `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
      },
      // package.json's "format:check" without npm around it. oxfmt (native) replaced prettier with its oxc and Tailwind
      // plugins: 16.7 → ~1 CPU-second for the same 1,032 files, same output (docs/decisions.md "Lint checks format").
      { label: 'formatting', cmd: ['node', 'node_modules/oxfmt/bin/oxfmt', '--check', '.'] },
      // package.json's "typecheck", its two projects as two processes of one thread each: TypeScript 7 checks on
      // several threads by default, which on a machine this suite already keeps busy buys no time and costs more CPU
      // (14.3–17.2 against 10.5–11.3 CPU-seconds for both projects, measured twice at load 14).
      ...['tsconfig.app.json', 'tsconfig.node.json'].map((project) => ({
        label: `type check (${project})`,
        cmd: ['node', 'node_modules/typescript-7/bin/tsc', '-p', project, '--singleThreaded'],
      })),
    ],
  },
]
// Two workers, each with one module registry for its files (vitest.config.ts). A lane of its own, beside the checks.
const unit: Stage[] = [
  {
    name: 'unit and integration (SPA)',
    runs: [{ cmd: [bin('vitest'), 'run', '--project', 'unit', '--maxWorkers=2'], report: 'vitest' }],
  },
]
// Backend on PGlite in two halves and on PostgreSQL at once: the backend files mostly wait on their own servers.
const backend: Stage[] = [
  { name: `backend protocol (${databaseUrl ? 'PGlite and PostgreSQL' : 'PGlite'})`, runs: backendRuns },
]
// The hosted lane (supabase/tests/hosted): one file on a PostgreSQL cluster of its own prepared as hosted Supabase
// prepares one, beside the database suite's runs. It needs Debian's postgresql and postgresql-15-cron (.ci/run).
const hostedLane: Run[] = databaseUrl
  ? [{ label: 'hosted lane', cmd: [bin('vitest'), 'run', '--project', 'hosted'], report: 'vitest' }]
  : []
const database: Stage = {
  name: `database (${databaseUrl ? 'PGlite and PostgreSQL, and the hosted lane' : 'PGlite'})`,
  runs: [...onBothEngines('db', { url: dbSuiteUrl }), ...hostedLane],
}
const browser: Stage[] = [
  { name: 'end to end (Chromium)', runs: [{ cmd: [bin('playwright'), 'test'], report: 'playwright' }] },
]
// The database suite (half a minute) follows the unit suite, the lane that ends first (on happy-dom: 228 s against
// 262 s for the browser suite and 297 s for the backend suite, with a core kept busy). A server given in
// TEST_DATABASE_URL serves the backend suite too: then it follows the backend suite instead, as the two would race
// to create the cluster-wide API roles (see localServer).
if (databaseUrl && databaseUrl === dbSuiteUrl) backend.push(database)
else unit.push(database)

let ok = false
try {
  const lanes = await Promise.all([
    runLane('checks', checks),
    runLane('unit', unit),
    runLane('backend', backend),
    runLane('browser', browser),
  ])
  ok = lanes.every(Boolean)
} finally {
  processCpu.stop()
  servers.forEach((server) => server.stop())
}
const serverCpu = processCpu.untracked('postgres')
const [load1, load5] = os.loadavg()
console.log(
  `\nnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s and ${(totalCpuSeconds + serverCpu).toFixed(0)} CPU-seconds ` +
    `(its stages ${totalCpuSeconds.toFixed(0)}, browsers included; the PostgreSQL servers ${serverCpu.toFixed(0)}) ` +
    `(load average now ${load1!.toFixed(2)}, ${load5!.toFixed(2)} over 5 min; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'})`,
)
console.log(`Tests: ${passed} passed, ${failed} failed`)
process.exit(ok ? 0 : 1)
