/**
 * Start-up budgets (ARCHITECTURE "Budgets"), measured the way a developer meets them: the real
 * `npm run backend` spawned in a copy of this working tree (its tracked and untracked files, no
 * supabase/.local, node_modules linked), timed from the spawn to the first 200 of /auth/v1/health.
 * - first start on a fresh clone: the copy has no supabase/.local at all (no database, no dump of any kind) and
 *   a tmp folder of its own (tsx's transform cache starts empty); then `npm install`'s postinstall runs in it, as
 *   `npm install` runs it on a fresh clone: the PGlite initdb template (node_modules is linked, so it is made
 *   once) and the migrated dumps in the copy's supabase/.local. Its time is printed apart; the first start is
 *   timed after it, as `npm run dev` follows `npm install`;
 * - existing database: `npm run backend` again in the same copy, as the second start of the day.
 * Each is run BENCH_START_RUNS times (default 5), alternating, and judged on the median. One more fresh
 * start without the install step (as after `npm ci --ignore-scripts`) shows what it saves.
 * Prints the load average and the CPU beside the figures; never fails on timing.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { initdbTemplateDir } from '../embedded-backend/db/snapshot'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BENCH_START_RUNS ?? 5)
const PORTS = { BACKEND_PORT: '55421', MAILBOX_PORT: '55424', SMTP_PORT: '55425' }
const FRESH_BUDGET_MS = 4000
const EXISTING_BUDGET_MS = 1000

type Timing = {
  origin: string
  phases: Record<string, number>
  /** startBackend's own time, as "Ready in" prints it (after node, tsx and the imports). */
  readyMs: number
  processMs: number
  cpuMs: number
  mainThreadCpuMs: number | null
  rssMb: number
}
export type StartRun = { healthMs: number; timing: Timing; load: number }

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN
}
const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET')
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** A copy of the working tree as a clone would have it: git's files, no ignored ones, node_modules linked. */
async function copyOfRepo(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'growletter-clone-'))
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`)
  const files = listed.stdout.split('\0').filter((f) => f && existsSync(path.join(repo, f)))
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await cp(path.join(repo, file), path.join(dir, file))
  }
  await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
  return dir
}

/** Spawns `npm run backend` in `cwd` and resolves at the first 200 of /auth/v1/health; then stops it. */
async function timeStart(cwd: string, env: Record<string, string>): Promise<StartRun> {
  const url = `http://127.0.0.1:${PORTS.BACKEND_PORT}/auth/v1/health`
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...PORTS, ...env, BACKEND_TIMING: '1' }
  for (const name of ['DATABASE_URL', 'BACKEND_DATA_DIR', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'BACKEND_LOG'])
    delete childEnv[name]
  const started = performance.now()
  const child = spawn('npm', ['run', '--silent', 'backend'], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d))
  child.stderr.on('data', (d: Buffer) => (output += d))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    let healthMs = 0
    while (!healthMs) {
      if (child.exitCode !== null) throw new Error(`npm run backend exited (${child.exitCode}):\n${output}`)
      const ok = await fetch(url).then(
        (r) => r.status === 200,
        () => false,
      )
      if (ok) healthMs = performance.now() - started
      else await new Promise((r) => setTimeout(r, 10))
    }
    const loadNow = os.loadavg()[0]!
    for (let i = 0; i < 600 && !output.includes('startup-timing '); i++) await new Promise((r) => setTimeout(r, 50))
    const line = output.split('\n').find((l) => l.startsWith('startup-timing '))
    if (!line) throw new Error(`no startup-timing line:\n${output}`)
    return { healthMs, timing: JSON.parse(line.slice('startup-timing '.length)) as Timing, load: loadNow }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
}

/** Makes the initdb template exactly as `npm install`'s postinstall does, if it is not there. */
function ensureTemplate(): number | null {
  const started = performance.now()
  const run = spawnSync('npm', ['run', '--silent', 'postinstall'], { cwd: repo, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`npm run postinstall failed: ${run.stderr}`)
  return run.stdout.includes('template made') ? performance.now() - started : null
}

/** `npm run postinstall` in a clone, as `npm install` runs it there; its wall time. */
function postinstall(cwd: string, env: Record<string, string>): number {
  const started = performance.now()
  const run = spawnSync('npm', ['run', '--silent', 'postinstall'], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  if (run.status !== 0 || !run.stdout.includes('Migrated database prepared'))
    throw new Error(`npm run postinstall in ${cwd} did not prepare the database: ${run.stdout}${run.stderr}`)
  return performance.now() - started
}

const fmt = (ms: number) => `${Math.round(ms)} ms`
const phaseList = (runs: StartRun[]) => {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.timing.phases)))].filter((n) => n !== 'database')
  return names.map((n) => `${n} ${fmt(median(runs.map((r) => r.timing.phases[n] ?? 0)))}`).join(', ')
}
const describe = (runs: StartRun[]) => {
  const cpu = runs.map((r) => r.timing.cpuMs)
  const main = runs.map((r) => r.timing.mainThreadCpuMs).filter((x): x is number => x !== null)
  return (
    `runs ${runs.map((r) => fmt(r.healthMs)).join(', ')}; in process ("Ready in") median ${fmt(median(runs.map((r) => r.timing.readyMs)))}; ` +
    `CPU median ${fmt(median(cpu))} (main thread ${main.length ? fmt(median(main)) : 'n/a'}); load at ready ${runs.map((r) => r.load.toFixed(1)).join(', ')}\n` +
    `    steps (median): ${phaseList(runs)}`
  )
}

export async function run() {
  console.log(`CPU ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}; load average ${load()} (1, 5, 15 min)`)
  const madeMs = ensureTemplate()
  const template = await initdbTemplateDir()
  console.log(
    madeMs === null
      ? `PGlite initdb template present (made by npm install's postinstall): ${path.relative(repo, template)}`
      : `PGlite initdb template was missing: made now as npm install's postinstall makes it, in ${fmt(madeMs)}`,
  )
  const installs: number[] = []
  const fresh: StartRun[] = []
  const existing: StartRun[] = []
  const clones: string[] = []
  try {
    for (let i = 0; i < RUNS; i++) {
      const clone = await copyOfRepo()
      clones.push(clone)
      // A tmp folder of its own: tsx's transform cache starts empty, as on a machine that never ran this code.
      const tmp = path.join(clone, '.bench-tmp')
      await mkdir(tmp)
      installs.push(postinstall(clone, { TMPDIR: tmp }))
      fresh.push(await timeStart(clone, { TMPDIR: tmp }))
      existing.push(await timeStart(clone, { TMPDIR: tmp }))
    }
    const noTemplate = await copyOfRepo()
    clones.push(noTemplate)
    await mkdir(path.join(noTemplate, '.bench-tmp'))
    const emptyCache = path.join(noTemplate, '.bench-empty-cache')
    const without = await timeStart(noTemplate, {
      TMPDIR: path.join(noTemplate, '.bench-tmp'),
      GROWLETTER_CACHE_DIR: emptyCache,
    })

    const origins = [...new Set(fresh.map((r) => r.timing.origin))].join(', ')
    const freshMedian = median(fresh.map((r) => r.healthMs))
    console.log(
      `first npm run backend on a fresh clone after npm install (${origins}), spawn to /auth/v1/health 200: median of ${RUNS} ${fmt(freshMedian)} ` +
        `(budget ≤ ${FRESH_BUDGET_MS} ms: ${verdict(freshMedian <= FRESH_BUDGET_MS)})\n    ${describe(fresh)}`,
    )
    console.log(
      `    before it, npm install's postinstall in the clone (the initdb template exists; the migrated dumps are made): ` +
        `median ${fmt(median(installs))} (${installs.map(fmt).join(', ')})`,
    )
    const existingReady = median(existing.map((r) => r.timing.readyMs))
    console.log(
      `npm run backend, existing database: "Ready in" (startBackend, after node, tsx and imports) median of ${RUNS} ${fmt(existingReady)} ` +
        `(budget ≤ ${EXISTING_BUDGET_MS} ms: ${verdict(existingReady <= EXISTING_BUDGET_MS)}); spawn to health 200 median ${fmt(median(existing.map((r) => r.healthMs)))}\n` +
        `    ${describe(existing)}`,
    )
    console.log(
      `memory after a first start (RSS of the backend): median ${median(fresh.map((r) => r.timing.rssMb)).toFixed(0)} MB`,
    )
    console.log(
      `for comparison, a fresh clone without what npm install prepares (npm ci --ignore-scripts; ${without.timing.origin}): ${fmt(without.healthMs)}, ` +
        `CPU ${fmt(without.timing.cpuMs)} (main thread ${without.timing.mainThreadCpuMs ?? 'n/a'} ms)\n    steps: ${phaseList([without])}`,
    )
    console.log(`load average after: ${load()}`)
    return { fresh, existing, without }
  } finally {
    for (const clone of clones) await rm(clone, { recursive: true, force: true })
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(fileURLToPath(import.meta.url))
if (isMain) run().then(() => process.exit(0))
