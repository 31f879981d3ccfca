/**
 * Build step (a Vite plugin, so `vite build`, `npm run build`, the e2e stack and the benchmarks all get it):
 * after the SPA is bundled, the public pages are rendered to static HTML that paints before any JavaScript
 * runs, then hydrates (src/app/prerender.tsx, src/app/boot.tsx).
 *
 * - `/about` is written to `dist/about.html`, `/newsletters/unavailable` to `dist/newsletters/unavailable.html`,
 *   and `/` into `dist/index.html`. Static hosts (and `vite preview`) serve `<path>.html` for `<path>`; every
 *   other path still gets `index.html`, the app.
 * - The stylesheet is inlined into every page (one small Tailwind file): no render-blocking request.
 * - The public data a page shows (directory, newsletter list, landing sections) is fetched from
 *   VITE_SUPABASE_URL now and embedded; the browser shows it at once and fetches it again behind it.
 * - `index.html` also carries the first-paint shell (header and spinner) that replaces the home page's HTML
 *   before the first paint on any other path, so a cold load of a dashboard is never a blank white screen.
 *
 * `PRERENDER=0` skips the step (a plain single-page build).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createServer, type Plugin, type ResolvedConfig } from 'vite'

/** What src/app/prerender.tsx exports (it is built for the browser's tsconfig, so it is described here). */
type PrerenderModule = {
  PRERENDERED_PATHS: string[]
  renderPage(path: string): Promise<{ html: string; data: unknown; failedQueries: string[] }>
  renderShell(): Promise<string>
}

const SHELL_TEMPLATE_ID = 'first-paint-shell'
const DATA_ID = 'prerendered-queries'

/** JSON inside a <script> element: `<` escaped so no string in the data can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** Swaps the home page's HTML for the shell, before the first paint, on every path but `/`. */
const SHELL_SWAP = `<script>(function(){var p=location.pathname;if(p==='/'||p==='')return;var t=document.getElementById('${SHELL_TEMPLATE_ID}'),r=document.getElementById('root');if(!t||!r)return;r.innerHTML=t.innerHTML;r.removeAttribute('data-prerendered');var d=document.getElementById('${DATA_ID}');if(d)d.remove()})()</script>`

export function prerender(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'growletter-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    async closeBundle() {
      if (config.build.ssr || process.env.PRERENDER === '0') return
      const started = performance.now()
      const outDir = path.resolve(config.root, config.build.outDir)
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8')
      const page = await inlineStylesheets(template, outDir)
      // The app's modules, loaded in Node the way Vite serves them (same aliases, same environment).
      const server = await createServer({
        root: config.root,
        mode: config.mode,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false, watch: null },
        optimizeDeps: { noDiscovery: true, include: [] },
      })
      try {
        const app = (await server.ssrLoadModule('/src/app/prerender.tsx')) as PrerenderModule
        const shell = await app.renderShell()
        const failures = new Set<string>()
        for (const route of app.PRERENDERED_PATHS) {
          const { html, data, failedQueries } = await app.renderPage(route)
          failedQueries.forEach((key) => failures.add(key))
          let out = page.replace(
            '<div id="root"></div>',
            `<div id="root" data-prerendered="${route}">${html}</div>` +
              (data ? `<script type="application/json" id="${DATA_ID}">${scriptJson(data)}</script>` : ''),
          )
          if (route === '/') out = out.replace('</body>', `<template id="${SHELL_TEMPLATE_ID}">${shell}</template>${SHELL_SWAP}</body>`)
          const file = route === '/' ? path.join(outDir, 'index.html') : path.join(outDir, `${route.slice(1)}.html`)
          await mkdir(path.dirname(file), { recursive: true })
          await writeFile(file, out)
        }
        if (failures.size) {
          config.logger.warn(`prerender: public data could not be fetched (${[...failures].join(', ')}); those pages load it in the browser`)
        }
        config.logger.info(`prerendered ${app.PRERENDERED_PATHS.length} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      } finally {
        await server.close()
      }
    },
  }
}

/** Replaces each `<link rel="stylesheet">` of the built page with the stylesheet itself. */
async function inlineStylesheets(html: string, outDir: string): Promise<string> {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)]
  let out = html
  for (const [tag, href] of links) {
    const css = await readFile(path.join(outDir, href!.replace(/^\//, '')), 'utf8')
    out = out.replace(tag, () => `<style>${css}</style>`)
  }
  return out
}
