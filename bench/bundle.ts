/**
 * The JavaScript a first visit to each public route downloads, gzip, against the 150 KB budget
 * (ARCHITECTURE "Budgets"). Measured in Chromium against the built SPA and a seeded backend: every
 * script the page fetched until the network is idle, gzipped as a CDN would serve it. Also checks that
 * no dashboard or admin chunk is among them.
 *
 * `/earn/{code}` is a hop, not a page: it lands on `/newsletters`. Its row counts what the hop itself adds
 * (the earn page's scripts and, after the redirect, the click's toast and fingerprint) against the earn
 * budget of ≤ 50 KB, and names the destination, whose own JavaScript is its own row against 150 KB: the
 * budget table gives the hop its own JavaScript budget, so the two are measured apart and both are printed.
 */
import { gzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { build, preview } from 'vite'
import { chromium } from 'playwright-core'
import { startBackend } from '../embedded-backend/server'

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
const EARN_BUDGET_KB = 50
const EARN_DESTINATION = '/newsletters'
const isEarn = (route: string) => route.startsWith('/earn/')
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
  const results: { route: string; kb: number; scripts: number; dashboardChunks: string[]; addedKb?: number }[] = []
  // Each route's scripts by URL, so that the earn hop's own can be told from its destination's.
  const loaded = new Map<string, Map<string, Buffer>>()
  const routes = ONLY ?? PUBLIC_ROUTES
  // The destination is visited first when only the earn row is asked for.
  const visits = routes.some(isEarn) && !routes.includes(EARN_DESTINATION) ? [EARN_DESTINATION, ...routes] : routes
  try {
    for (const route of [...visits].sort((a, b) => Number(isEarn(a)) - Number(isEarn(b)))) {
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
      loaded.set(route, scripts)
      const gz = (bodies: Iterable<Buffer>) => [...bodies].reduce((sum, body) => sum + gzipSync(body).length, 0)
      const bytes = gz(scripts.values())
      const destination = loaded.get(EARN_DESTINATION)
      // The earn page's own inline script (the click) counts too; the browser drops the body of a document it
      // navigated away from, so the page is read again from Node.
      const inline = isEarn(route)
        ? [
            ...(await (await fetch(`${appUrl}${route}`)).text()).matchAll(
              /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g,
            ),
          ]
            .filter(([, attrs]) => !/json/.test(attrs ?? ''))
            .map(([, , code]) => Buffer.from(code ?? ''))
        : []
      const added =
        isEarn(route) && destination
          ? gz([...[...scripts].filter(([u]) => !destination.has(u)).map(([, body]) => body), ...inline])
          : undefined
      const dashboardChunks = [...scripts.keys()].filter((u) =>
        /(advertiser|publisher|admin|overview|analytics|wallet)-/i.test(u),
      )
      if (process.env.BENCH_VERBOSE) {
        for (const [u, body] of scripts)
          console.log(`    ${String(gzipSync(body).length).padStart(7)}  ${u.slice(appUrl.length)}`)
      }
      const kb = (n: number) => Number((n / 1024).toFixed(1))
      if (routes.includes(route))
        results.push({ route, kb: kb(bytes), scripts: scripts.size, dashboardChunks, addedKb: added && kb(added) })
      await context.close()
    }
  } finally {
    await browser.close()
    await server.close()
    await backend.close()
  }
  console.log('\nPublic-route JavaScript on first visit (gzip), budget ≤ 150 KB')
  for (const r of results) {
    const leak = r.dashboardChunks.length ? ` (dashboard code: ${r.dashboardChunks.join(', ')})` : ''
    if (r.addedKb !== undefined) {
      const verdict = r.addedKb <= EARN_BUDGET_KB && r.dashboardChunks.length === 0 ? 'PASS' : 'OVER'
      console.log(
        `  ${r.route.padEnd(20)} ${String(r.addedKb).padStart(7)} KB of its own (budget ≤ ${EARN_BUDGET_KB} KB, before and after the redirect)  ${verdict}${leak}`,
      )
      console.log(
        `  ${''.padEnd(20)} ${String(r.kb).padStart(7)} KB with ${EARN_DESTINATION}'s own, in ${r.scripts} scripts`,
      )
      continue
    }
    const verdict = r.kb <= BUDGET_KB && r.dashboardChunks.length === 0 ? 'PASS' : 'OVER'
    console.log(`  ${r.route.padEnd(20)} ${String(r.kb).padStart(7)} KB in ${r.scripts} scripts  ${verdict}${leak}`)
  }
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run()
  process.exit(0)
}
