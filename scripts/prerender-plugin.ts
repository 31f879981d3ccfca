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
import { build, createServer, type Plugin, type ResolvedConfig, type Rollup } from 'vite'
import { composePrerenderedPage } from '../src/app/prerender-page.ts'
import { EARN_PATH } from '../src/config/paths.ts'
import { EARN_SPINNER_HTML } from '../src/features/magic-link/lib/earn-spinner.ts'

/** What src/app/prerender.tsx exports (it is built for the browser's tsconfig, so it is described here). */
type PrerenderModule = {
  PRERENDERED_PATHS: string[]
  renderPage(path: string): Promise<{ html: string; data: unknown; failedQueries: string[] }>
  renderShell(): Promise<string>
}

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
          // Function replacements inside: names with `$&` or `$\`` stay text (src/app/prerender-page.ts).
          const out = composePrerenderedPage(page, { route, html, data, shell })
          const file = route === '/' ? path.join(outDir, 'index.html') : path.join(outDir, `${route.slice(1)}.html`)
          await mkdir(path.dirname(file), { recursive: true })
          await writeFile(file, out)
        }
        if (failures.size) {
          config.logger.warn(
            `prerender: public data could not be fetched (${[...failures].join(', ')}); those pages load it in the browser`,
          )
        }
        config.logger.info(
          `prerendered ${app.PRERENDERED_PATHS.length} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        )
      } finally {
        await server.close()
      }
    },
  }
}

const EARN_PAGE = 'earn.html'

/**
 * The magic-link landing page, `dist/earn.html`, for hosts that rewrite `/earn/*` to it (`public/_redirects`,
 * `vite preview`; the README lists nginx and Vercel): one classic inline script
 * (src/features/magic-link/earn-inline.ts) that sends the click and leaves with `location.replace` for the
 * destination's prerendered page, and the spinner with the few CSS rules it needs. No module, stylesheet or
 * preload: the visitor does not stay, and each of them cost the click's answer main-thread time (docs/decisions.md
 * "The light /earn page: the click first, the fingerprint after"). The toast and the fingerprint follow at the destination.
 * A host without the rewrite serves `index.html` for `/earn/*`, whose entry runs the same flow a little later.
 */
export function earnPage(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'growletter-earn-page',
    apply: (_, env) => env.command === 'build' || env.isPreview === true,
    configResolved(resolved) {
      config = resolved
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname, query] = (req.url ?? '/').split(/\?(.*)/s, 2)
        if (EARN_PATH.test(pathname ?? '')) req.url = `/${EARN_PAGE}${query ? `?${query}` : ''}`
        next()
      })
    },
    async writeBundle() {
      if (config.build.ssr) return
      const outDir = path.resolve(config.root, config.build.outDir)
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8')
      // Only when the environment is broken does the page load the app (which then says what is wrong).
      const assets = {
        scripts: [...template.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
        styles: [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      }
      if (!assets.scripts.length) throw new Error('earn page: index.html has no module script to fall back on')
      const inline = (await buildEarnInlineScript(config, assets)).replace(/<\/script/gi, () => '<\\/script')
      const page =
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">' +
        `<script>${inline}</script>\n` +
        '<title>Redirecting to newsletters · Growletter</title><meta name="robots" content="noindex">\n' +
        '<meta name="viewport" content="width=device-width, initial-scale=1.0"><meta name="theme-color" content="#16a34a">\n' +
        `<style>${EARN_PAGE_CSS}</style>\n</head>\n<body>\n<div id="root">${EARN_SPINNER_HTML}</div>\n</body>\n</html>\n`
      await writeFile(path.join(outDir, EARN_PAGE), page)
    },
  }
}

/**
 * The spinner's look without the app's stylesheet: src/index.css's tokens, Tailwind's classes on it. It shows
 * from 0.4 s: most visitors have left by then, and painting it (text in the system font, an SVG) earlier spent
 * CPU the click's answer was waiting for on a busy machine (docs/decisions.md, magic links).
 */
const EARN_PAGE_CSS =
  "body{margin:0;background:#fff;color:#0f172a;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;-webkit-font-smoothing:antialiased}" +
  '#earn-spinner{display:flex;min-height:40vh;align-items:center;justify-content:center;gap:.5rem;color:#475569;animation:earn-late 0s .4s both}' +
  '@keyframes earn-late{from{visibility:hidden}}' +
  '#earn-spinner svg{width:1.25rem;height:1.25rem;animation:earn-spin 1s linear infinite}' +
  '@keyframes earn-spin{to{transform:rotate(360deg)}}' +
  '@media (prefers-reduced-motion:reduce){#earn-spinner svg{animation:none}}'

/**
 * src/features/magic-link/earn-inline.ts as one classic script, built with the app's environment and aliases.
 * `@/config/env` waits (top-level await) for zod when the environment is broken, which a classic script
 * cannot do: here it is the quick check alone, and the inline script only runs when that check passes.
 */
async function buildEarnInlineScript(
  config: ResolvedConfig,
  appAssets: { scripts: string[]; styles: string[] },
): Promise<string> {
  const ENV = '\0earn-inline-env'
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    envDir: config.envDir,
    logLevel: 'error',
    define: { __EARN_APP_ASSETS__: JSON.stringify(appAssets) },
    resolve: {
      alias: [
        { find: /^@\/config\/env$/, replacement: ENV },
        { find: '@', replacement: path.resolve(config.root, 'src') },
      ],
    },
    plugins: [
      {
        name: 'earn-inline-env',
        resolveId: (id) => (id === ENV ? ENV : null),
        load: (id) =>
          id === ENV
            ? "import { quickEnv } from '@/config/env-check'\nexport const env = quickEnv(import.meta.env)"
            : null,
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: {
        entry: path.resolve(config.root, 'src/features/magic-link/earn-inline.ts'),
        formats: ['iife'],
        name: 'growletterEarnInline',
        fileName: 'earn-inline',
      },
    },
  })
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  if (chunks.length !== 1)
    throw new Error(`earn page: the inline script should be one chunk, not ${chunks.map((c) => c.fileName).join(', ')}`)
  return chunks[0]!.code
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
