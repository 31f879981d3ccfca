// The docs name every edge function there is, and no other: the README's "Where things are" row and the table of
// supabase/functions/README.md each list exactly the function folders (every folder of supabase/functions but
// _shared). The README once listed 11 of 14.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const functionsDir = path.join(root, 'supabase/functions')

async function functionFolders(): Promise<string[]> {
  const entries = await readdir(functionsDir, { withFileTypes: true })
  return entries
    .filter((e) => e.isDirectory() && e.name !== '_shared')
    .map((e) => e.name)
    .sort()
}

/** The backticked lowercase names (`subscribe`, `send-payouts`) in one line of a document. */
const namesIn = (line: string) => [...new Set([...line.matchAll(/`([a-z]+(?:-[a-z]+)*)`/g)].map((m) => m[1]!))].sort()

describe('edge functions in the docs', () => {
  it('README.md lists every function folder, and nothing else', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8')
    const row = readme.split('\n').find((line) => line.startsWith('| `supabase/functions`'))
    expect(row, 'the "supabase/functions" row of README.md').toBeDefined()
    const folders = await functionFolders()
    expect(folders.length).toBeGreaterThan(10)
    expect(namesIn(row!)).toEqual(folders)
  })

  it('supabase/functions/README.md has one table row per function folder', async () => {
    const readme = await readFile(path.join(functionsDir, 'README.md'), 'utf8')
    const rows = readme
      .split('\n')
      .map((line) => line.match(/^\| `([a-z-]+)`\s+\|/)?.[1])
      .filter((name): name is string => name !== undefined)
      .sort()
    expect(rows).toEqual(await functionFolders())
  })
})
