// The product's edge functions type-check under Deno with `npm:` imports resolved from the repository's
// node_modules (deno.json: nodeModulesDir "manual"): no registry, no download, as on a machine offline.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { denoBinary, repoRoot } from './deno-process'

const run = promisify(execFile)
const functionsDir = path.join(repoRoot, 'supabase/functions')
const fixturesDir = path.join(import.meta.dirname, '../testing/fixtures/functions')

async function entryPoints(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => path.join(dir, e.name, 'index.ts'))
}

it('deno check passes on every function, the test fixtures and the runner host, with the npm registry unreachable', async () => {
  const names = await entryPoints(functionsDir)
  expect(names.length).toBeGreaterThanOrEqual(3)
  names.push(...(await entryPoints(fixturesDir)))
  const denoDir = await mkdtemp(path.join(os.tmpdir(), 'growletter-deno-'))
  try {
    const host = path.join(repoRoot, 'embedded-backend/functions')
    const { stderr } = await run(
      denoBinary(),
      [
        'check',
        '--quiet',
        `--config=${path.join(functionsDir, 'deno.json')}`,
        ...names,
        `${host}/host.ts`,
        `${host}/host-worker.ts`,
      ],
      {
        cwd: functionsDir,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DENO_DIR: denoDir,
          NO_COLOR: '1',
          NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
        },
      },
    )
    expect(stderr).toBe('')
  } finally {
    await rm(denoDir, { recursive: true, force: true })
  }
}, 120_000)
