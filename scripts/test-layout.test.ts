// Tests live where the code they test lives (docs/style.md "Comments and docs"), so a reader finds both with one
// guess: every test file sits in a folder that also holds code, and no folder holds only tests. The exceptions are
// the rooms of shared test support and of the database tests. The old test-only folders (tests/,
// embedded-backend/tests/) must stay gone: a test added there fails here.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
/** Folders whose tests need no code beside them: shared test support, and the database's tests. */
const TEST_ROOMS = ['src/testing', 'embedded-backend/testing', 'supabase/tests']
/** Build output, caches and reports: nothing of ours to check. */
const SKIPPED = /^(node_modules|dist.*|coverage|test-results|playwright-report|\..*)$/
const isTest = (name: string) => /\.test\.[cm]?[jt]sx?$/.test(name)
const isCode = (name: string) => !isTest(name) && !/\.md$/i.test(name)

/** Every folder of the repository (relative to its root) with the names of the files in it. */
function folders(dir = ''): Map<string, string[]> {
  const found = new Map<string, string[]>()
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true })
  found.set(
    dir,
    entries.filter((e) => e.isFile()).map((e) => e.name),
  )
  for (const e of entries)
    if (e.isDirectory() && !SKIPPED.test(e.name))
      for (const [sub, names] of folders(path.posix.join(dir, e.name))) found.set(sub, names)
  return found
}

const inRoom = (dir: string) => TEST_ROOMS.some((room) => dir === room || dir.startsWith(`${room}/`))
/** A feature's folder is its room even when all its code sits in api/, components/, lib/: its screens' tests go there. */
const isFeatureRoot = (dir: string) => /^src\/features\/[^/]+$/.test(dir)

describe('where the tests live', () => {
  const all = folders()
  const testFiles = [...all].flatMap(([dir, names]) => names.filter(isTest).map((name) => path.posix.join(dir, name)))

  it('finds the tests of every area (the walk reaches them)', () => {
    for (const area of [
      'src/features/',
      'src/lib/',
      'embedded-backend/auth/',
      'supabase/functions/',
      'supabase/tests/',
    ])
      expect(
        testFiles.some((file) => file.startsWith(area)),
        area,
      ).toBe(true)
  })

  it('keeps no test in the old test-only folders tests/ and embedded-backend/tests/', () => {
    expect(testFiles.filter((file) => /^(embedded-backend\/)?tests\//.test(file))).toEqual([])
  })

  it('puts every test file in a folder that also holds the code it tests', () => {
    const alone = [...all]
      .filter(([dir, names]) => names.some(isTest) && !names.some(isCode) && !inRoom(dir) && !isFeatureRoot(dir))
      .map(([dir]) => dir || '.')
    expect(alone, 'folders that hold tests and no code: move each test beside the code it tests').toEqual([])
  })
})
