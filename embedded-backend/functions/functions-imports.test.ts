// `supabase functions deploy` bundles only supabase/functions/: a function that imports a file from anywhere else runs
// here (Deno reads the whole repository) and fails to deploy, or deploys without it. This walks every function's
// static import graph (imports, re-exports, `import type`, literal dynamic imports) from its index.ts, and fails on any
// file outside supabase/functions and on any specifier Deno would fetch from elsewhere than npm.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './deno-process'

const functionsDir = path.join(repoRoot, 'supabase/functions')

/** What each file of a function's graph imports that the deploy would not carry, as "file: specifier (why)". */
async function importsOutside(root: string, entry: string): Promise<string[]> {
  const problems: string[] = []
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const info = ts.preProcessFile(await readFile(file, 'utf8'), true, true)
    const specifiers = [...info.importedFiles, ...info.referencedFiles].map((r) => r.fileName)
    for (const specifier of specifiers) {
      const where = `${path.relative(root, file)}: ${specifier}`
      if (specifier.startsWith('npm:')) continue
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
        problems.push(`${where} (only npm: packages and files of supabase/functions are deployed)`)
        continue
      }
      const target = path.resolve(path.dirname(file), specifier)
      if (path.relative(root, target).startsWith('..')) problems.push(`${where} (outside supabase/functions)`)
      else queue.push(target)
    }
  }
  return problems
}

async function functionEntries(root: string): Promise<string[]> {
  return (await readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('_') && !e.name.startsWith('.'))
    .map((e) => path.join(root, e.name, 'index.ts'))
}

describe('edge function imports', () => {
  it('stay inside supabase/functions for every function, so `supabase functions deploy` carries them', async () => {
    const entries = await functionEntries(functionsDir)
    expect(entries.length).toBeGreaterThanOrEqual(14)
    const problems = (await Promise.all(entries.map((e) => importsOutside(functionsDir, e)))).flat()
    expect(problems).toEqual([])
  })

  it('are followed through shared files, re-exports and type imports, and an import outside is reported', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'growletter-imports-'))
    try {
      await mkdir(path.join(root, 'functions/hello'), { recursive: true })
      await mkdir(path.join(root, 'functions/_shared'), { recursive: true })
      await mkdir(path.join(root, 'templates'), { recursive: true })
      await writeFile(
        path.join(root, 'functions/hello/index.ts'),
        `import { a } from '../_shared/a.ts'\nimport 'npm:zod@4'\nDeno.serve(() => new Response(a))\n`,
      )
      await writeFile(path.join(root, 'functions/_shared/a.ts'), `export * from './b.ts'\n`)
      await writeFile(
        path.join(root, 'functions/_shared/b.ts'),
        `import type { T } from '../../templates/t.ts'\nimport x from 'jsr:@std/x'\nexport const a: T = x\n`,
      )
      const problems = await importsOutside(path.join(root, 'functions'), path.join(root, 'functions/hello/index.ts'))
      expect(problems).toEqual([
        '_shared/b.ts: ../../templates/t.ts (outside supabase/functions)',
        '_shared/b.ts: jsr:@std/x (only npm: packages and files of supabase/functions are deployed)',
      ])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
