/**
 * A throwaway PostgreSQL server for tests and benchmarks, when Debian's postgresql package is installed.
 * The database suites run against PGlite always, and against this server too when it can start.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type LocalPostgres = { url: string; stop(): void }

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

/** Starts a server on `port`, or returns null when PostgreSQL is not installed. */
export function startLocalPostgres(port = 55433): LocalPostgres | null {
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
  const init = run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const opts = `-p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=100`
  const start = run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start'])
  if (start.status !== 0) throw new Error(`PostgreSQL did not start: ${start.stderr}${start.stdout}`)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function uidOf(user: string) {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
}
function gidOf(user: string) {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
}
