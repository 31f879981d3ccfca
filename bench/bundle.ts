/**
 * The JavaScript a first visit to each public route downloads, gzip, against the 150 KB budget
 * (ARCHITECTURE "Budgets"). Reads Vite's manifest: the entry chunk and its static imports, plus the
 * route's lazy page chunk and its static imports. Dashboards must not appear in these closures.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import path from 'node:path'
import { build } from 'vite'

type Chunk = { file: string; imports?: string[]; isEntry?: boolean; src?: string }
type Manifest = Record<string, Chunk>

export const PUBLIC_ROUTES: Record<string, string> = {
  '/': 'src/app/routes/home.tsx',
  '/audiences': 'src/app/routes/audiences.tsx',
  '/newsletters': 'src/app/routes/newsletters.tsx',
  '/earn/{code}': 'src/app/routes/earn.tsx',
  '/login': 'src/app/routes/login.tsx',
}
const BUDGET_KB = 150

function closure(manifest: Manifest, key: string, seen = new Set<string>()) {
  if (seen.has(key) || !manifest[key]) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen)
  return seen
}

export async function run() {
  const outDir = 'dist-bench'
  process.env.VITE_SUPABASE_URL ??= 'http://127.0.0.1:54321'
  process.env.VITE_SUPABASE_ANON_KEY ??= 'bench-anon-key-not-used-at-runtime'
  await build({ logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true } })
  const manifest: Manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'))
  const gz = (file: string) => gzipSync(readFileSync(path.join(outDir, file))).length
  const results = Object.entries(PUBLIC_ROUTES).map(([route, page]) => {
    const keys = new Set([...closure(manifest, 'index.html'), ...closure(manifest, page)])
    const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'))
    const kb = files.reduce((sum, f) => sum + gz(f), 0) / 1024
    const leaks = [...keys].filter((k) => /routes\/(advertiser|publisher|admin)\//.test(k))
    return { route, kb: Number(kb.toFixed(1)), chunks: files.length, leaks }
  })
  console.log('\nPublic-route JavaScript (gzip), budget ≤ 150 KB')
  for (const r of results) {
    const verdict = r.kb <= BUDGET_KB && r.leaks.length === 0 ? 'PASS' : 'OVER'
    console.log(`  ${r.route.padEnd(14)} ${String(r.kb).padStart(7)} KB in ${r.chunks} chunks  ${verdict}${r.leaks.length ? ` (dashboard code: ${r.leaks.join(', ')})` : ''}`)
  }
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
