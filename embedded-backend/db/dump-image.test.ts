/**
 * dump-image.ts fills a new in-memory PGlite from a dump itself instead of PGlite's loadDataDir, relying on
 * PGlite's Filesystem hooks (see its header). These tests fail when that stops holding, e.g. after a PGlite
 * upgrade: the files must be exactly the tarball's (one the system's tar wrote from a folder, long names and
 * empty files included), each database must own its copy, and PGlite must start the dump's database rather
 * than run initdb over it.
 */
import { PGlite } from '@electric-sql/pglite'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from './database'
import { DumpImageFS, dumpImageOf, parseDump, type DumpImage } from './dump-image'
import { initdbSnapshot } from './snapshot'

type Tree = { dirs: string[]; files: Map<string, { data: Buffer; mtimeSeconds: number }> }

let scratch: string
/** A small data directory of the shapes a dump holds, its tarball as the system's tar writes it, and its image. */
let source: Tree
let tar: Uint8Array
let image: DumpImage

const longDir = `pg_logical/${'mappings-'.repeat(8)}/${'snapshots-'.repeat(6)}` // a path past ustar's 100 bytes

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'growletter-dump-image-'))
  const dir = path.join(scratch, 'pgdata')
  const files: Record<string, Buffer> = {
    PG_VERSION: Buffer.from('18\n'),
    'base/5/1259': Buffer.from(Array.from({ length: 8192 * 3 }, (_, i) => (i * 7919) % 251)),
    'base/5/1259_fsm': Buffer.alloc(24576),
    'global/pg_control': Buffer.from(Array.from({ length: 8192 }, (_, i) => i % 256)),
    'pg_wal/000000010000000000000001': Buffer.concat([Buffer.alloc(512, 0xd1), Buffer.alloc(100_000)]),
    'pg_logical/replorigin_checkpoint': Buffer.alloc(0),
    [`${longDir}/0-1`]: Buffer.from('a file whose path needs the ustar prefix field'),
  }
  for (const empty of ['pg_tblspc', 'pg_notify', 'pg_wal/archive_status'])
    await mkdir(path.join(dir, empty), { recursive: true })
  let mtime = 1_700_000_000
  for (const [name, data] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true })
    await writeFile(path.join(dir, name), data)
    await utimes(path.join(dir, name), mtime, mtime)
    mtime += 3601
  }
  execFileSync('tar', ['--format=ustar', '-cf', path.join(scratch, 'dump.tar'), '-C', dir, '.'])
  tar = new Uint8Array(await readFile(path.join(scratch, 'dump.tar')))
  image = parseDump(tar)
  source = { dirs: [], files: new Map() }
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const rel = '/' + path.relative(dir, path.join(entry.parentPath, entry.name))
    if (entry.isDirectory()) source.dirs.push(rel)
  }
  mtime = 1_700_000_000
  for (const [name, data] of Object.entries(files)) {
    source.files.set(`/${name}`, { data, mtimeSeconds: mtime })
    mtime += 3601
  }
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const pgdataOf = (pg: PGlite) => (pg.Module.ENV as Record<string, string>).PGDATA!

/** The data directory of a PGlite whose filesystem was filled, without starting postgres on it. */
function dataDirOf(pg: PGlite): Tree {
  const { FS } = pg.Module
  const root = pgdataOf(pg)
  const tree: Tree = { dirs: [], files: new Map() }
  const walk = (dir: string) => {
    for (const name of FS.readdir(dir)) {
      if (name === '.' || name === '..') continue
      const full = `${dir}/${name}`
      const st = FS.stat(full)
      if (FS.isDir(st.mode)) {
        tree.dirs.push(full.slice(root.length))
        walk(full)
      } else {
        const mtimeMs = st.mtime instanceof Date ? st.mtime.getTime() : Number(st.mtime)
        tree.files.set(full.slice(root.length), {
          data: Buffer.from(FS.readFile(full)),
          mtimeSeconds: Math.floor(mtimeMs / 1000),
        })
      }
    }
  }
  walk(root)
  return tree
}

const filledPglite = async () => {
  const pg = new PGlite({ fs: new DumpImageFS(image), noInitDb: true })
  await pg.waitReady
  return pg
}

describe('DumpImageFS', () => {
  it('fills the data directory with exactly the files, directories and mtimes of the dump', async () => {
    const pg = await filledPglite()
    const actual = dataDirOf(pg)
    await pg.close()
    expect(actual.dirs.sort()).toEqual(source.dirs.sort())
    expect(actual.dirs).toContain(`/${longDir}`)
    expect([...actual.files.keys()].sort()).toEqual([...source.files.keys()].sort())
    for (const [file, { data, mtimeSeconds }] of source.files) {
      const got = actual.files.get(file)!
      expect(got.data.equals(data), file).toBe(true)
      expect(got.mtimeSeconds, file).toBe(mtimeSeconds)
    }
  })

  it('gives each database its own copy: a write in one reaches neither the image nor another database', async () => {
    const [a, b] = [await filledPglite(), await filledPglite()]
    const file = `${pgdataOf(a)}/global/pg_control`
    const before = Buffer.from(b.Module.FS.readFile(file))
    const stream = a.Module.FS.open(file, 'r+')
    a.Module.FS.write(stream, new Uint8Array(16).fill(0xab), 0, 16, 0)
    a.Module.FS.close(stream)
    expect(Buffer.from(a.Module.FS.readFile(file)).subarray(0, 16)).toEqual(Buffer.alloc(16, 0xab))
    expect(Buffer.from(b.Module.FS.readFile(file)).equals(before)).toBe(true)
    const inImage = image.files.find((f) => f.path === '/global/pg_control')!
    expect(Buffer.from(image.tar.subarray(inImage.start, inImage.end)).equals(before)).toBe(true)
    await Promise.all([a.close(), b.close()])
  })

  it("starts the dump's database, not a new one from initdb, and the dump is of a shut-down server", async () => {
    const initdb = await initdbSnapshot()
    expect(await dumpImageOf(initdb)).not.toBeNull()
    const first = await openDatabase({ loadDataDir: initdb })
    await first.exec(`create table dump_marker (id int); insert into dump_marker values (42);`)
    const marked = await first.dumpDataDir!()
    await first.close()
    const markedImage = await dumpImageOf(marked)
    expect(markedImage).not.toBeNull()
    // pg_control's state (after the system identifier and two version numbers): DB_SHUTDOWNED (1), not
    // DB_IN_PRODUCTION (6), so a database started from the dump does no crash recovery (database.ts dumpShutDown).
    const control = markedImage!.files.find((f) => f.path === '/global/pg_control')!
    expect(Buffer.from(markedImage!.tar.subarray(control.start, control.end)).readUInt32LE(16)).toBe(1)
    const second = await openDatabase({ loadDataDir: marked })
    try {
      expect((await second.query('select id from dump_marker')).rows).toEqual([{ id: 42 }])
    } finally {
      await second.close()
    }
  })
})

describe('parseDump', () => {
  it('refuses what is not a plain tarball of a data directory, so PGlite loads it its own way', async () => {
    const gzipped = gzipSync(tar)
    expect(() => parseDump(gzipped)).toThrow(/checksum/)
    expect(await dumpImageOf(new Blob([gzipped]))).toBeNull()
    const pgVersion = image.files.find((f) => f.path === '/PG_VERSION')!
    const next = pgVersion.start + Math.ceil((pgVersion.end - pgVersion.start) / 512) * 512
    expect(() => parseDump(Buffer.concat([tar.subarray(0, pgVersion.start - 512), tar.subarray(next)]))).toThrow(
      /PG_VERSION/,
    )
    // A symbolic link (type '2'): not something a data directory dump holds.
    const link = Buffer.from(tar)
    const header = image.files[0]!.start - 512
    link[header + 156] = '2'.charCodeAt(0)
    link.write(checksum(link.subarray(header, header + 512)), header + 148, 'ascii')
    expect(() => parseDump(link)).toThrow(/tar type '2'/)
  })
})

function checksum(header: Uint8Array): string {
  let sum = 0
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!
  return sum.toString(8).padStart(6, '0') + '\0 '
}
