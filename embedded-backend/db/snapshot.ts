/**
 * PGlite's initdb costs 3.5–4 s of CPU and migrating + seeding about 1.5 s more; opening an in-memory database
 * from a dump about 0.5 s (dump-image.ts; ≈1 s through PGlite's loadDataDir); copying an initdb'd directory
 * natively and opening it about 0.9 s.
 * - The initdb template: a freshly initdb'd data directory per PGlite version (nothing project-specific
 *   in it), made by `npm install` (the root package's postinstall runs `template.ts`) in
 *   node_modules/.cache/growletter, beside the PGlite it comes from, and removed with it. A new database
 *   folder starts as a copy of it, so the first `npm run dev` on a fresh clone does not run initdb.
 * - Two kinds of dump are cached in the git-ignored supabase/.local folder, as plain (not gzipped) tarballs:
 *   - the freshly initdb'd directory as a tarball, per PGlite version (for in-memory test databases);
 *   - the fully migrated (and optionally seeded) directory, keyed by a hash of everything that shapes it
 *     (PGlite version, bootstrap.sql, the auth API's sources, the local pg_cron/pg_net, the migrations, seed.sql), so any change to
 *     those files builds a new one and a stale dump is never used. `npm install` makes both (template.ts), so
 *     the first `npm run dev` on a fresh clone loads the seeded one.
 */
import { PGlite } from '@electric-sql/pglite'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs'
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pgliteExtensions } from './database'
import { backendDir, supabaseDir } from './migrate'

export const localStateDir = path.join(supabaseDir, '.local')

const pgliteEntry = () => createRequire(import.meta.url).resolve('@electric-sql/pglite')

async function pgliteVersion(): Promise<string> {
  const entry = pgliteEntry()
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`))
  return (JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string }).version
}

/** node_modules/.cache/growletter in the node_modules folder PGlite is installed in (GROWLETTER_CACHE_DIR overrides). */
export function installCacheDir(): string {
  if (process.env.GROWLETTER_CACHE_DIR) return path.resolve(process.env.GROWLETTER_CACHE_DIR)
  const entry = pgliteEntry()
  const marker = `${path.sep}node_modules${path.sep}`
  return path.join(entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1), '.cache', 'growletter')
}

/** Where the initdb template of the installed PGlite lives (it may not exist yet). */
export async function initdbTemplateDir(cacheDir = installCacheDir()): Promise<string> {
  return path.join(cacheDir, `pglite-${await pgliteVersion()}-initdb`)
}

/**
 * Makes the initdb template unless it exists: initdb in a temporary folder beside it, closed cleanly, then
 * renamed into place, so the template folder exists only complete (two installs may race; one wins).
 */
export async function makeInitdbTemplate(cacheDir = installCacheDir()): Promise<{ dir: string; made: boolean }> {
  const dir = await initdbTemplateDir(cacheDir)
  if (isDataDir(dir)) return { dir, made: false }
  await mkdir(cacheDir, { recursive: true })
  const tmp = `${dir}.${process.pid}.${Date.now()}.tmp`
  try {
    // Made exactly as a new database folder is (PGlite.create on an empty folder), without extensions:
    // they are files of the wasm build and `create extension` in the migrations, not part of the folder.
    const lite = await PGlite.create(`file://${tmp}`)
    await lite.close()
    await rename(tmp, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!isDataDir(dir)) throw error // someone else's rename won: theirs is as good as ours
    })
    // Templates of other PGlite versions are of no further use.
    for (const name of await readdir(cacheDir)) {
      if (/^pglite-.+-initdb$/.test(name) && name !== path.basename(dir))
        await rm(path.join(cacheDir, name), { recursive: true, force: true })
    }
    return { dir, made: true }
  } finally {
    await rm(tmp, { recursive: true, force: true })
  }
}

const isDataDir = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'))

/**
 * Creates `dataDir` as a copy of the initdb template, if there is one for the installed PGlite; false
 * otherwise (PGlite then runs initdb). The copy is made beside `dataDir` and renamed, so an interrupted
 * copy never looks like a database. Never overwrites an existing `dataDir`.
 */
export async function copyInitdbTemplate(dataDir: string, cacheDir = installCacheDir()): Promise<boolean> {
  const template = await initdbTemplateDir(cacheDir).catch(() => null)
  if (!template || !isDataDir(template) || existsSync(dataDir)) return false
  await mkdir(path.dirname(dataDir), { recursive: true })
  const tmp = `${dataDir}.${process.pid}.${Date.now()}.tmp`
  try {
    await cp(template, tmp, { recursive: true, errorOnExist: true, force: false })
    await rename(tmp, dataDir)
    return true
  } finally {
    await rm(tmp, { recursive: true, force: true })
  }
}

// Dumps are kept as plain tarballs: loading one skips gunzip, a quarter of a test backend's start (≈250 ms of
// ≈1 s, measured on the migrated dump: 45 MB plain, 5.8 MB gzipped). They are local files, never shipped.
const initdbFile = async () => path.join(localStateDir, `pglite-${await pgliteVersion()}-initdb.tar`)

/** The cached initdb snapshot, or null when none has been made yet. */
export async function cachedInitdbSnapshot(): Promise<Blob | null> {
  return readSnapshot(await initdbFile())
}

/** The cached initdb snapshot, made first if there is none (atomically, as tests may race for it). */
export async function initdbSnapshot(): Promise<Blob> {
  const file = await initdbFile()
  const cached = await cachedInitdbSnapshot()
  if (cached) return cached
  // From a copy of npm install's initdb template when there is one (~1.5 s of CPU), else by initdb (~4 s).
  const scratch = path.join(localStateDir, `initdb-template-copy.${process.pid}.${Date.now()}`)
  const fromTemplate = await copyInitdbTemplate(scratch).catch(() => false)
  const lite = await PGlite.create(fromTemplate ? `file://${scratch}` : undefined, { extensions: pgliteExtensions })
  const dump = await lite.dumpDataDir('none').finally(() => lite.close())
  await rm(scratch, { recursive: true, force: true })
  const bytes = Buffer.from(await dump.arrayBuffer())
  await writeAtomically(file, bytes)
  return new Blob([bytes])
}

async function writeAtomically(file: string, bytes: Buffer) {
  await mkdir(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, bytes)
  await rename(tmp, file)
}

function filesUnder(dir: string): string[] {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true })
  } catch {
    return []
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

/** Every file whose bytes shape the migrated dump (see migratedSnapshotFile). */
const dumpSources = (seed: boolean) => [
  path.join(backendDir, 'db', 'bootstrap.sql'),
  ...filesUnder(path.join(backendDir, 'auth')),
  ...filesUnder(path.join(backendDir, 'cron')),
  ...filesUnder(path.join(supabaseDir, 'migrations')),
  ...(seed ? [path.join(supabaseDir, 'seed.sql')] : []),
]

/**
 * The hash of the sources, per process, while none of them has changed: each test backend's start asks for it, and
 * reading and hashing the ~120 files costs ≈22 ms of CPU a start, listing and stat-ing them ≈1 ms. Any file added,
 * removed, resized or written since (its mtime) makes the hash be computed again from the bytes.
 */
const sourceHashes = new Map<string, { signature: string; hash: string }>()

/** Where the migrated dump for the current sources lives (it may not exist yet); `dir` for tests. */
export async function migratedSnapshotFile(seed: boolean, dir = localStateDir): Promise<string> {
  const sources = dumpSources(seed)
  const signature = sources
    .map((file) => {
      const st = statSync(file, { throwIfNoEntry: false })
      return `${file} ${st?.size} ${st?.mtimeMs}`
    })
    .join('\n')
  const key = `seed:${seed}`
  let known = sourceHashes.get(key)
  if (known?.signature !== signature) {
    const hash = createHash('sha256')
      .update(await pgliteVersion())
      .update(`seed:${seed}`)
      // How the dump is taken: of a cleanly shut-down server (database.ts dumpShutDown); dumps taken before are
      // remade.
      .update('dump:shut-down')
    for (const file of sources) hash.update(file).update(await readFile(file).catch(() => Buffer.alloc(0)))
    known = { signature, hash: hash.digest('hex').slice(0, 16) }
    sourceHashes.set(key, known)
  }
  return path.join(dir, `pglite-migrated-${seed ? 'seed' : 'noseed'}-${known.hash}.tar`)
}

// A dump's name carries the hash of everything that shaped it, so its bytes never change: a process that opens
// many databases (a test worker) reads each dump once.
const snapshots = new Map<string, Blob>()

export async function readSnapshot(file: string): Promise<Blob | null> {
  const known = snapshots.get(file)
  if (known) return known
  const bytes = await readFile(file).catch(() => null)
  if (!bytes) return null
  const blob = new Blob([bytes])
  snapshots.set(file, blob)
  return blob
}

/** Saves a migrated database's dump and removes the dumps of older sources. */
export async function saveMigratedSnapshot(file: string, dump: Blob) {
  await writeAtomically(file, Buffer.from(await dump.arrayBuffer()))
  const prefix = path.basename(file).split('-').slice(0, 3).join('-')
  const dir = path.dirname(file)
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix) && name !== path.basename(file) && !name.endsWith('.tmp')) {
      await rm(path.join(dir, name), { force: true })
    }
  }
}
