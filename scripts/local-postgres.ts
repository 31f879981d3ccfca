/**
 * A throwaway PostgreSQL server for tests and benchmarks, when Debian's postgresql package is installed.
 * The database suites run against PGlite always, and against this server too when it can start.
 *
 * The cluster is made as hosted Supabase makes its own: its superuser is `supabase_admin` (initdb -U), and
 * `postgres` — the role the backend, the migrations and the tests connect as — is an ordinary role with hosted's
 * attributes (login, createdb, createrole, replication, bypassrls; no superuser). The platform's part of preparing
 * a database (embedded-backend/db/bootstrap.sql and hosted-platform.sql) runs as supabase_admin; see platform.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type LocalPostgres = {
  /** As `postgres`, the project's role (what DATABASE_URL / TEST_DATABASE_URL name). */
  url: string
  /** As `supabase_admin`, the cluster's superuser (the platform's role). */
  adminUrl: string
  stop(): void
}

export type LocalPostgresOptions = {
  /** `shared_preload_libraries`, e.g. `['pg_cron']`. */
  preload?: string[]
  /** More server settings (`-c name=value`); `{socket}` in a value is replaced by the socket directory. */
  settings?: Record<string, string>
}

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  for (const version of versions) {
    const bin = path.join(root, version, 'bin')
    if (existsSync(path.join(bin, 'initdb'))) return bin
  }
  return null
}

/** Hosted Supabase's `postgres`: no superuser since the platform demoted it (supabase/postgres, demote-postgres). */
const POSTGRES_ROLE = 'create role postgres login createdb createrole replication bypassrls'

/** Starts a server on `port`, or returns null when PostgreSQL is not installed. */
export function startLocalPostgres(port = 55433, options: LocalPostgresOptions = {}): LocalPostgres | null {
  const bin = findBinDir()
  if (!bin) return null
  const dir = mkdtempSync(path.join(os.tmpdir(), 'growletter-pg-'))
  // initdb refuses to run as root; Debian's package creates the postgres user.
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
    return spawnSync(full[0] as string, full[1] as string[], { stdio: 'pipe', encoding: 'utf8' })
  }
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'))
  const data = path.join(dir, 'data')
  const init = run(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'supabase_admin',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ])
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const settings: Record<string, string> = {
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    listen_addresses: '127.0.0.1',
    max_connections: '100',
    ...(options.preload?.length ? { shared_preload_libraries: options.preload.join(',') } : {}),
    ...options.settings,
  }
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v.replaceAll('{socket}', dir)}`),
  ].join(' ')
  const start = run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start'])
  if (start.status !== 0) throw new Error(`PostgreSQL did not start: ${start.stderr}${start.stdout}`)
  const stop = () => {
    run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'])
    rmSync(dir, { recursive: true, force: true })
  }
  const role = run(path.join(bin, 'psql'), [
    '-X',
    '-q',
    '-h',
    dir,
    '-p',
    String(port),
    '-U',
    'supabase_admin',
    '-d',
    'postgres',
    '-c',
    POSTGRES_ROLE,
  ])
  if (role.status !== 0) {
    stop()
    throw new Error(`could not create the postgres role: ${role.stderr}`)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    adminUrl: `postgres://supabase_admin@127.0.0.1:${port}/postgres`,
    stop,
  }
}

function uidOf(user: string) {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
}
function gidOf(user: string) {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
}
