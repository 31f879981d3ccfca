/**
 * dump-image.ts fills a new in-memory PGlite from a dump itself instead of PGlite's loadDataDir, relying on
 * PGlite's Filesystem hooks (see its header). These tests fail when that stops holding, e.g. after a PGlite
 * upgrade: the files must be exactly the dump's (checked against the system's tar), each database must own its
 * copy, and PGlite must start the dump's database rather than run initdb over it.
 */
import { PGlite } from '@electric-sql/pglite'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from './database'
import { DumpImageFS, dumpImageOf, parseDump, type DumpImage } from './dump-image'
import { initdbSnapshot } from './snapshot'

let scratch: string
let dump: Blob
let image: DumpImage
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'growletter-dump-image-'))
  dump = await initdbSnapshot()
  image = (await dumpImageOf(dump))!
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

type Tree = { dirs: string[]; files: Map<string, { data: Buffer; mtimeSeconds: number }> }

/** The dump as the system's tar extracts it. */
async function extractedWithTar(): Promise<Tree> {
  const tarFile = path.join(scratch, 'dump.tar')
  const dir = path.join(scratch, 'extracted')
  await writeFile(tarFile, Buffer.from(await dump.arrayBuffer()))
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  execFileSync('tar', ['-xf', tarFile, '-C', dir], { stdio: 'ignore' })
  const tree: Tree = { dirs: [], files: new Map() }
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    const rel = '/' + path.relative(dir, full)
    if (entry.isDirectory()) tree.dirs.push(rel)
    else
      tree.files.set(rel, { data: await readFile(full), mtimeSeconds: Math.floor((await stat(full)).mtimeMs / 1000) })
  }
  return tree
}

/** The data directory of a PGlite whose filesystem was filled, without starting postgres on it. */
function dataDirOf(pg: PGlite): Tree {
  const { FS } = pg.Module
  const root = (pg.Module.ENV as Record<string, string>).PGDATA!
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
    const expected = await extractedWithTar()
    expect(expected.files.size).toBeGreaterThan(900)
    const pg = await filledPglite()
    const actual = dataDirOf(pg)
    await pg.close()
    expect(actual.dirs.sort()).toEqual(expected.dirs.sort())
    expect([...actual.files.keys()].sort()).toEqual([...expected.files.keys()].sort())
    for (const [file, { data, mtimeSeconds }] of expected.files) {
      const got = actual.files.get(file)!
      expect(got.data.equals(data), file).toBe(true)
      expect(got.mtimeSeconds, file).toBe(mtimeSeconds)
    }
  })

  it('gives each database its own copy: a write in one reaches neither the image nor another database', async () => {
    const [a, b] = [await filledPglite(), await filledPglite()]
    const file = `${(a.Module.ENV as Record<string, string>).PGDATA}/global/pg_control`
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

  it("starts the dump's database, not a new one from initdb", async () => {
    const first = await openDatabase({ loadDataDir: dump })
    await first.exec(`create table dump_marker (id int); insert into dump_marker values (42);`)
    const marked = await first.dumpDataDir!()
    await first.close()
    expect(await dumpImageOf(marked)).not.toBeNull()
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
    const tar = new Uint8Array(await dump.arrayBuffer())
    expect(() => parseDump(gzipSync(tar))).toThrow(/checksum/)
    expect(await dumpImageOf(new Blob([gzipSync(tar)]))).toBeNull()
    const pgVersion = image.files.find((f) => f.path === '/PG_VERSION')!
    const next = pgVersion.start + Math.ceil((pgVersion.end - pgVersion.start) / 512) * 512
    const withoutVersion = Buffer.concat([tar.subarray(0, pgVersion.start - 512), tar.subarray(next)])
    expect(() => parseDump(withoutVersion)).toThrow(/PG_VERSION/)
  })
})
