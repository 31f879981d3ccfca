/**
 * The JavaScript a first visit to each public route downloads, gzip, against the 150 KB budget
 * (ARCHITECTURE "Budgets"). Measured in Chromium against the built SPA and a seeded backend: every
 * script the page fetched until the network is idle, gzipped as a CDN would serve it. Also checks that
 * no dashboard or admin chunk is among them.
 */
import { gzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { build, preview } from 'vite'
import { chromium } from 'playwright-core'
import { startBackend } from '../supabase/local/server'

export const PUBLIC_ROUTES = [
  '/',
  '/audiences',
  '/newsletters',
  '/newsletters/unavailable',
  '/earn/demo-approved',
  '/login',
  '/register',
  '/contact',
  '/help',
]
const ONLY = process.env.BENCH_ROUTES?.split(',')
const BUDGET_KB = 150
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium'

export async function run() {
  const backend = await startBackend({ port: 0, dataDir: null, seed: true })
  const outDir = 'dist-bench/bundle'
  process.env.VITE_SUPABASE_URL = backend.apiUrl
  process.env.VITE_SUPABASE_ANON_KEY = backend.anonKey
  await build({ logLevel: 'error', mode: 'production', build: { outDir, emptyOutDir: true } })
  const server = await preview({ logLevel: 'error', preview: { port: 0, host: '127.0.0.1' }, build: { outDir } })
  const appUrl = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const results: { route: string; kb: number; scripts: number; dashboardChunks: string[] }[] = []
  try {
    for (const route of ONLY ?? PUBLIC_ROUTES) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const scripts = new Map<string, Buffer>()
      page.on('response', async (response) => {
        const url = response.url()
        if (url.startsWith(appUrl) && url.endsWith('.js'))
          scripts.set(url, await response.body().catch(() => Buffer.alloc(0)))
      })
      await page.goto(`${appUrl}${route}`, { waitUntil: 'networkidle' })
      await page.waitForTimeout(300)
      const bytes = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0)
      const dashboardChunks = [...scripts.keys()].filter((u) =>
        /(advertiser|publisher|admin|overview|analytics|wallet)-/i.test(u),
      )
      if (process.env.BENCH_VERBOSE) {
        for (const [u, body] of scripts)
          console.log(`    ${String(gzipSync(body).length).padStart(7)}  ${u.slice(appUrl.length)}`)
      }
      results.push({ route, kb: Number((bytes / 1024).toFixed(1)), scripts: scripts.size, dashboardChunks })
      await context.close()
    }
  } finally {
    await browser.close()
    await server.close()
    await backend.close()
  }
  console.log('\nPublic-route JavaScript on first visit (gzip), budget ≤ 150 KB')
  for (const r of results) {
    const verdict = r.kb <= BUDGET_KB && r.dashboardChunks.length === 0 ? 'PASS' : 'OVER'
    const leak = r.dashboardChunks.length ? ` (dashboard code: ${r.dashboardChunks.join(', ')})` : ''
    console.log(`  ${r.route.padEnd(20)} ${String(r.kb).padStart(7)} KB in ${r.scripts} scripts  ${verdict}${leak}`)
  }
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run()
  process.exit(0)
}
