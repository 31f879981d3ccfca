/**
 * PGlite's initdb takes ~3 s and migrating + seeding several more; loading a gzip dump of a data
 * directory takes ~1 s. Two kinds of dump are cached in the git-ignored supabase/.local folder:
 * - the freshly initdb'd directory, per PGlite version (nothing project-specific in it);
 * - the fully migrated (and optionally seeded) directory, keyed by a hash of everything that shapes it
 *   (PGlite version, bootstrap.sql, the auth API's sources, the local pg_cron/pg_net, the migrations, seed.sql), so any change to
 *   those files builds a new one and a stale dump is never used.
 */
import { PGlite } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pgliteExtensions } from './database'
import { supabaseDir } from './migrate'

export const localStateDir = path.join(supabaseDir, '.local')

async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`))
  return (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version
}

const initdbFile = async () => path.join(localStateDir, `pglite-${await pgliteVersion()}-initdb.tar.gz`)

/** The cached initdb snapshot, or null when none has been made yet. */
export async function cachedInitdbSnapshot(): Promise<Blob | null> {
  const cached = await readFile(await initdbFile()).catch(() => null)
  return cached ? new Blob([cached]) : null
}

/** The cached initdb snapshot, made first if there is none (atomically, as tests may race for it). */
export async function initdbSnapshot(): Promise<Blob> {
  const file = await initdbFile()
  const cached = await cachedInitdbSnapshot()
  if (cached) return cached
  const lite = await PGlite.create(undefined, { extensions: pgliteExtensions })
  const dump = await lite.dumpDataDir('gzip')
  await lite.close()
  const bytes = Buffer.from(await dump.arrayBuffer())
  await writeAtomically(file, bytes)
  return new Blob([bytes])
}

async function writeAtomically(file: string, bytes: Buffer) {
  await mkdir(localStateDir, { recursive: true })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, bytes)
  await rename(tmp, file)
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort()
}

/** Where the migrated dump for the current sources lives (it may not exist yet). */
export async function migratedSnapshotFile(seed: boolean): Promise<string> {
  const hash = createHash('sha256').update(await pgliteVersion()).update(`seed:${seed}`)
  const sources = [
    path.join(supabaseDir, 'local', 'db', 'bootstrap.sql'),
    ...(await filesUnder(path.join(supabaseDir, 'local', 'auth'))),
    ...(await filesUnder(path.join(supabaseDir, 'local', 'cron'))),
    ...(await filesUnder(path.join(supabaseDir, 'migrations'))),
    ...(seed ? [path.join(supabaseDir, 'seed.sql')] : []),
  ]
  for (const file of sources) hash.update(file).update(await readFile(file).catch(() => Buffer.alloc(0)))
  return path.join(localStateDir, `pglite-migrated-${seed ? 'seed' : 'noseed'}-${hash.digest('hex').slice(0, 16)}.tar.gz`)
}

export async function readSnapshot(file: string): Promise<Blob | null> {
  const bytes = await readFile(file).catch(() => null)
  return bytes ? new Blob([bytes]) : null
}

/** Saves a migrated database's dump and removes the dumps of older sources. */
export async function saveMigratedSnapshot(file: string, dump: Blob) {
  await writeAtomically(file, Buffer.from(await dump.arrayBuffer()))
  const prefix = path.basename(file).split('-').slice(0, 3).join('-')
  for (const name of await readdir(localStateDir)) {
    if (name.startsWith(prefix) && name !== path.basename(file) && !name.endsWith('.tmp')) {
      await rm(path.join(localStateDir, name), { force: true })
    }
  }
}
