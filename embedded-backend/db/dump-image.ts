/**
 * A PGlite dump (a plain tarball of the data directory, as `dumpDataDir('none')` writes it) parsed once per
 * process into its directories and files, and a filesystem that starts each new in-memory PGlite with them, its
 * files reading the dump's bytes until postgres writes them. PGlite's own `loadDataDir` path reads the Blob, untars it
 * and writes file by file, looking up every parent directory of every file again: ≈1 CPU-second per test database
 * against ≈0.5 with a copy of every file here, most of the difference garbage and path lookups (fillDataDir says
 * what sharing the bytes saved on top).
 *
 * What it relies on of PGlite (0.5.x): the `fs` option takes a `Filesystem`; `MemoryFS` (exported) is its
 * in-memory one, emscripten's MEMFS; a Filesystem's `initialSyncFs()` runs once the emscripten module exists and
 * before PGlite looks for `PGDATA/PG_VERSION` (found: it starts the database there instead of running initdb,
 * exactly as for a folder that holds a database; not found: it would run initdb over it), and its `closeFs()` after
 * postgres has exited; `pg.Module.FS` is emscripten's FS and `pg.Module.ENV.PGDATA` the data directory postgres
 * starts on. Of MEMFS: a directory node's `node_ops.mknod` makes a child node, a file node keeps its bytes in
 * `contents` (`usedBytes` long), and only its `stream_ops.write` and `msync` change them in place (growing or
 * truncating moves them to a new array). dump-image.test.ts fails when any of that stops holding (a PGlite
 * upgrade), and database.ts (openPglite) hands PGlite the dump as `loadDataDir`, as before, when it cannot be
 * parsed here.
 */
import { MemoryFS, type PGlite } from '@electric-sql/pglite'

export type DumpImage = {
  /** Directories below PGDATA, parents first, as '/base', '/base/1', … */
  dirs: string[]
  /** Files below PGDATA in the tarball's order: where their bytes are in `tar`, and their mtime (ms). */
  files: { path: string; start: number; end: number; mtime: number }[]
  /** The tarball (never written: each database reads its files from it until it writes one, fillDataDir). */
  tar: Uint8Array
}

const BLOCK = 512

function field(bytes: Uint8Array, at: number, length: number): string {
  let end = at
  while (end < at + length && bytes[end] !== 0) end++
  return Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at).toString('utf8')
}

const octal = (bytes: Uint8Array, at: number, length: number) => parseInt(field(bytes, at, length).trim() || '0', 8)

/**
 * Parses a plain ustar tarball (what PGlite's dumps are: regular files and directories, no gzip, no long-name
 * extensions) into a DumpImage that refers to `tar` (not a copy). Throws on anything else (a
 * gzipped dump, a link, a pax header, a bad checksum), and the caller then loads the dump PGlite's own way.
 */
export function parseDump(tar: Uint8Array): DumpImage {
  const dirs = new Set<string>()
  const files: DumpImage['files'] = []
  const addParents = (path: string) => {
    for (let i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) dirs.add(path.slice(0, i))
  }
  let at = 0
  while (at + BLOCK <= tar.length) {
    if (tar[at] === 0) break // the two zero blocks that end the archive
    let sum = 0
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : tar[at + i]!
    if (sum !== octal(tar, at + 148, 8)) throw new Error(`dump: bad tar header checksum at byte ${at}`)
    const prefix = field(tar, at + 345, 155)
    const name = (prefix ? `${prefix}/` : '') + field(tar, at + 0, 100)
    const size = octal(tar, at + 124, 12)
    const mtime = octal(tar, at + 136, 12) * 1000
    const type = String.fromCharCode(tar[at + 156] || 48) // '\0' is an old-style regular file
    const path = '/' + name.replace(/^\.?\/+/, '').replace(/\/+$/, '')
    const start = at + BLOCK
    if (start + size > tar.length) throw new Error(`dump: ${name} runs past the end of the tarball`)
    if (type === '0') {
      addParents(path)
      files.push({ path, start, end: start + size, mtime })
    } else if (type === '5') {
      addParents(path)
      if (path !== '/') dirs.add(path)
    } else {
      throw new Error(`dump: ${name} is of tar type '${type}', not a file or directory`)
    }
    at = start + Math.ceil(size / BLOCK) * BLOCK
  }
  if (!files.some((f) => f.path === '/PG_VERSION')) throw new Error('dump: no PG_VERSION, not a data directory')
  return { dirs: [...dirs].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)), files, tar }
}

const images = new WeakMap<Blob, Promise<DumpImage | null>>()

/**
 * The image of a dump Blob, parsed once per Blob (snapshot.ts hands out one Blob per dump file and process), or
 * null when it is not a plain tarball of regular files and directories (PGlite's loadDataDir then loads it).
 */
export function dumpImageOf(dump: Blob): Promise<DumpImage | null> {
  let image = images.get(dump)
  if (!image) {
    image = dump.arrayBuffer().then((bytes) => {
      try {
        return parseDump(new Uint8Array(bytes))
      } catch {
        return null
      }
    })
    images.set(dump, image)
  }
  return image
}

/**
 * An in-memory PGlite filesystem (as PGlite's default one) that starts as a copy of a dump: pass it as `fs`, and
 * no `loadDataDir`. Each instance reads the image's bytes until it writes a file, which then gets a copy of its own
 * (fillDataDir).
 */
export class DumpImageFS extends MemoryFS {
  constructor(private readonly image: DumpImage) {
    super()
  }

  async initialSyncFs() {
    fillDataDir(this.pg!, this.image)
  }
}

/**
 * A DumpImageFS that, as its PGlite closes, keeps a dump of the data directory as postgres left it on shutting down
 * (PGlite calls `closeFs()` after postgres has exited, while its filesystem is still there): `shutDownDump`.
 */
export class DumpOnCloseFS extends DumpImageFS {
  shutDownDump?: Blob

  async closeFs() {
    this.shutDownDump = await this.dumpTar('pgdata', 'none')
  }
}

/** The parts of emscripten's MEMFS nodes and stream operations fillDataDir uses (PGlite exports no types for them). */
type MemNode = {
  contents: Uint8Array
  usedBytes: number
  atime: number
  mtime: number
  stream_ops: StreamOps
  node_ops: { mknod(parent: MemNode, name: string, mode: number, dev: number): MemNode }
  /** Set while `contents` is a view of the image's tarball, shared with every other database made from it. */
  sharedContents?: boolean
}
type Stream = { node: MemNode }
type StreamOps = {
  write(stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number, canOwn?: boolean): number
  msync(stream: Stream, buffer: Uint8Array, offset: number, length: number, flags: number): number
  [op: string]: unknown
}

const DIR_MODE = 0o040777 // what FS.mkdir gives (emscripten's default mode 0777, no umask)
const FILE_MODE = 0o100666 // what FS.writeFile gives (emscripten's default mode 0666, no umask)

/** A file's own copy of its bytes, made on its first write (then it is an ordinary MEMFS file). */
function unshare(node: MemNode) {
  if (!node.sharedContents) return
  node.contents = node.contents.slice(0, node.usedBytes)
  node.sharedContents = false
}

/**
 * MEMFS's file operations with copy on write: the only ones that change a file's bytes in place are `write` and
 * `msync` (which calls MEMFS's write directly); growing or truncating a file already moves it to a new array.
 */
const copyOnWrite = new WeakMap<StreamOps, StreamOps>()
function copyOnWriteOps(ops: StreamOps): StreamOps {
  let cow = copyOnWrite.get(ops)
  if (!cow) {
    cow = {
      ...ops,
      write(stream, ...rest) {
        unshare(stream.node)
        return ops.write(stream, ...rest)
      },
      msync(stream, ...rest) {
        unshare(stream.node)
        return ops.msync(stream, ...rest)
      },
    }
    copyOnWrite.set(ops, cow)
  }
  return cow
}

/**
 * Writes the image below PGDATA as PGlite's loadDataDir would (directories and files with emscripten's default
 * modes, each file's mtime from the dump), but without a copy: each file's contents are a view of the image's
 * tarball, shared by every database made from it, until its first write gives it a copy of its own (a test writes
 * to a few of the 1,400 files: the WAL segment, pg_control, the tables it touches; the other 30–50 MB are only
 * read). The nodes are made through MEMFS's own `mknod` under their parent's node, which FS.writeFile would look
 * up from the root, path by path, for each of the 1,400 files.
 * Measured: in a profile of 20 test-backend starts, fillDataDir 205 → 9 ms a start, the garbage collector 126 → 70 ms
 * a start (no 66 MB copy per database), 13 ms of copies on first write; a test backend's start and close 0.74–0.88 →
 * 0.58–0.65 CPU-seconds with the shut-down dump of database.ts (12 a side, alternating, loaded machine).
 */
function fillDataDir(pg: PGlite, image: DumpImage) {
  const { FS, ENV } = pg.Module
  // The data directory postgres is started on (PGlite sets it in its preRun, before this runs).
  const pgdata = (ENV as Record<string, string | undefined>).PGDATA
  if (!pgdata?.startsWith('/')) throw new Error('PGlite set no PGDATA before initialSyncFs: cannot load the dump')
  if (FS.analyzePath(pgdata).exists) {
    if (FS.readdir(pgdata).length > 2) throw new Error(`${pgdata} is not empty: a dump only starts a new database`)
  } else FS.mkdirTree(pgdata)
  const nodes = new Map<string, MemNode>([['', FS.lookupPath(pgdata).node as unknown as MemNode]])
  const make = (path: string, mode: number) => {
    const slash = path.lastIndexOf('/')
    const parent = nodes.get(path.slice(0, slash))!
    return parent.node_ops.mknod(parent, path.slice(slash + 1), mode, 0)
  }
  for (const dir of image.dirs) nodes.set(dir, make(dir, DIR_MODE))
  for (const file of image.files) {
    const node = make(file.path, FILE_MODE)
    node.contents = image.tar.subarray(file.start, file.end)
    node.usedBytes = file.end - file.start
    node.sharedContents = true
    node.stream_ops = copyOnWriteOps(node.stream_ops)
    node.atime = node.mtime = file.mtime
  }
}
