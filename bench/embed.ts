/**
 * The embed (issue 41; ARCHITECTURE "Wave 4 interfaces"): `embed.js`'s size (budget ≤ 15 KB gzip), the time from the
 * host page's navigation start to the offers visible in the frame on a throttled phone profile (390 px, CPU 4×
 * slower, a fast mobile connection: 40 ms latency, 10 Mbit/s down; budget ≤ 1 s), and the host page's cumulative
 * layout shift (budget < 0.1) with text above and below the snippet. The host page is served from another origin,
 * under a CSP that allows only the script and the frame. Starts its own backend and the built SPA on ephemeral ports.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, preview } from 'vite'
import { chromium } from 'playwright-core'
import { startBackend } from '../embedded-backend/server'
import { machineLoad } from './machine'

const RUNS = Number(process.env.EMBED_RUNS ?? 7)
const BUDGET_KB = 15
const BUDGET_MS = 1000
const BUDGET_CLS = 0.1
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/**
 * A thank-you page: the snippet in the middle of the text (`middle`, the page's own text below it moves down by the
 * frame's height when the async script places it after the first paint), or after the text (`end`).
 */
const hostPage = (appUrl: string, at: 'middle' | 'end') => {
  const snippet = `<script async src="${appUrl}/embed.js" data-source="demo-approved"></script>`
  const text = Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i + 1} of the host page.</p>`).join('')
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Thanks</title></head><body><h1>Thanks for subscribing!</h1>' +
    '<p>While you are here, our friends write these newsletters, each worth a look.</p>' +
    (at === 'middle' ? snippet + text : text + snippet) +
    '</body></html>'
  )
}

export async function run() {
  const backend = await startBackend({ port: 0, dataDir: null, seed: true })
  const outDir = 'dist-bench/embed' // git-ignored with the other bench builds
  process.env.VITE_SUPABASE_URL = backend.apiUrl
  process.env.VITE_SUPABASE_ANON_KEY = backend.anonKey
  process.env.PRERENDER = '0'
  await build({ logLevel: 'error', mode: 'production', build: { outDir, emptyOutDir: true } })
  const server = await preview({ logLevel: 'error', preview: { port: 0, host: '127.0.0.1' }, build: { outDir } })
  const appUrl = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`
  const host = createServer((req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src ${appUrl}/embed.js; frame-src ${appUrl}`,
    })
    res.end(hostPage(appUrl, req.url?.includes('end') ? 'end' : 'middle'))
  })
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  try {
    const script = await readFile(path.join(outDir, 'embed.js'))
    const frameHtml = await readFile(path.join(outDir, 'embed.html'))
    const startLoad = machineLoad()
    const times: number[] = []
    const shifts: Record<'middle' | 'end', number[]> = { middle: [], end: [] }
    for (let i = 0; i <= RUNS * 2; i++) {
      const at = i % 2 ? 'end' : 'middle'
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        userAgent: `Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 bench-${i}`,
      })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 40,
        downloadThroughput: (10 * 1024 * 1024) / 8,
        uploadThroughput: (5 * 1024 * 1024) / 8,
      })
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await page.addInitScript(() => {
        const w = window as unknown as { __cls: number }
        w.__cls = 0
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!entry.hadRecentInput) w.__cls += entry.value
        }).observe({ type: 'layout-shift', buffered: true })
      })
      const started = Date.now()
      await page.goto(`${hostUrl}${at}`, { waitUntil: 'commit' })
      await page.frameLocator('iframe[title="Recommended newsletters"]').locator('#embed[data-ready]').waitFor()
      const visible = Date.now() - started
      await page.waitForLoadState('networkidle')
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls)
      await context.close()
      if (i === 0) continue // warm-up
      times.push(visible)
      shifts[at].push(cls)
    }
    const kb = gzipSync(script).length / 1024
    const p50 = percentile(times, 50)
    const worst = (at: 'middle' | 'end') => Math.max(...shifts[at])
    console.log(`embed on a host page of another origin, ${RUNS * 2} runs (fresh context each, after a warm-up):`)
    console.log(`  at start: ${startLoad}`)
    console.log(`  embed.js: ${kb.toFixed(2)} KB gzip (budget ≤ ${BUDGET_KB} KB) ${kb <= BUDGET_KB ? 'OK' : 'OVER'}`)
    console.log(
      `  the frame's document (/embed/{code}, script and CSS inline): ${(gzipSync(frameHtml).length / 1024).toFixed(2)} KB gzip`,
    )
    console.log(
      `  host navigation start → offers visible, phone profile (CPU 4×, 40 ms, 10 Mbit/s): p50 ${p50.toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms (budget ≤ ${BUDGET_MS} ms) ${p50 <= BUDGET_MS ? 'OK' : 'OVER'}`,
    )
    for (const at of ['middle', 'end'] as const)
      console.log(
        `  host page layout shift (CLS), snippet ${at === 'middle' ? "above the page's text" : "after the page's text"}: worst ${worst(at).toFixed(3)} (budget < ${BUDGET_CLS}) ${worst(at) < BUDGET_CLS ? 'OK' : 'OVER'}`,
      )
    console.log(`  at end: ${machineLoad()}`)
  } finally {
    await browser.close()
    await new Promise((resolve) => host.close(resolve))
    await server.close()
    await backend.close()
  }
}
