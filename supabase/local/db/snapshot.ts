/**
 * PGlite's initdb takes ~3 s; loading a gzip dump of a freshly initdb'd data directory takes ~1 s. The
 * dump is made once per PGlite version and cached in the git-ignored supabase/.local folder, so a new
 * database (and each test's in-memory database) starts from it. Nothing project-specific is in it: the
 * bootstrap, auth schema and migrations still run on top, so it never goes stale with the code.
 */
import { PGlite } from '@electric-sql/pglite'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
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

/** The cached initdb snapshot, made first if there is none (atomically, as tests may race for it). */
export async function initdbSnapshot(): Promise<Blob> {
  const file = path.join(localStateDir, `pglite-${await pgliteVersion()}-initdb.tar.gz`)
  const cached = await readFile(file).catch(() => null)
  if (cached) return new Blob([cached])
  const lite = await PGlite.create(undefined, { extensions: pgliteExtensions })
  const dump = await lite.dumpDataDir('gzip')
  await lite.close()
  const bytes = Buffer.from(await dump.arrayBuffer())
  await mkdir(localStateDir, { recursive: true })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, bytes)
  await rename(tmp, file)
  return new Blob([bytes])
}
