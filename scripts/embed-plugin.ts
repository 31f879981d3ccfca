/**
 * The embed (issue 41; ARCHITECTURE "Wave 4 interfaces"): two files built on their own, beside the SPA.
 *
 * - `/embed.js`: src/embed/loader.ts as one minified classic script (no imports; budget 15 KB gzip).
 * - `/embed/{code}`: `embed.html`, one document: a preconnect to the API, src/embed/ask-offers.ts inlined first (it
 *   asks for the offers at once), then the CSS and src/embed/frame.ts inlined, so the frame needs no second request
 *   of its own before the offers' answer.
 *
 * `vite build` writes both into the output; `vite preview` and `vite` (dev) serve `/embed/*` from embed.html (the
 * dev server builds both on each request). Static hosts rewrite `/embed/*` to `/embed.html` (public/_redirects) and
 * send the headers of public/_headers: only `/embed/*` may be framed by other sites.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ServerResponse } from 'node:http'
import { build, loadEnv, type Plugin, type ResolvedConfig, type Rollup } from 'vite'
import { FRAME_BODY } from '../src/embed/frame-markup.ts'

export const EMBED_PAGE = 'embed.html'
export const EMBED_SCRIPT = 'embed.js'
const EMBED_PATH = /^\/embed\/[^/]+\/?$/

export function embed(): Plugin {
  let config: ResolvedConfig
  const rewrite = (req: { url?: string }, res: ServerResponse, built = true) => {
    const [pathname, query] = (req.url ?? '/').split(/\?(.*)/s, 2)
    if (EMBED_PATH.test(pathname ?? '')) {
      // Any site may frame the embed, and only the embed (public/_headers says the same to static hosts).
      res.setHeader('Content-Security-Policy', 'frame-ancestors *')
      // The same document for every source (its data comes by request): a reader's next page of the site has it.
      // Not from the dev server, where the document changes with each edit.
      if (built) res.setHeader('Cache-Control', 'public, max-age=300')
      req.url = `/${EMBED_PAGE}${query ? `?${query}` : ''}`
    } else if (pathname === `/${EMBED_SCRIPT}`) {
      res.setHeader('Access-Control-Allow-Origin', '*')
    } else if (pathname?.startsWith('/dashboard') || pathname === '/login') {
      res.setHeader('X-Frame-Options', 'DENY')
      res.setHeader('Content-Security-Policy', "frame-ancestors 'none'")
    }
  }
  return {
    name: 'growletter-embed',
    configResolved(resolved) {
      config = resolved
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        rewrite(req, res)
        next()
      })
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        rewrite(req, res, false)
        const file = req.url?.split('?')[0]
        if (file !== `/${EMBED_PAGE}` && file !== `/${EMBED_SCRIPT}`) return next()
        const made = file === `/${EMBED_PAGE}` ? embedPage(config) : buildClassicScript(config, 'src/embed/loader.ts')
        made.then(
          (body) => {
            res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'text/html')
            res.end(body)
          },
          (error: unknown) => next(error),
        )
      })
    },
    async writeBundle() {
      if (config.build.ssr) return
      const outDir = path.resolve(config.root, config.build.outDir)
      await writeFile(path.join(outDir, EMBED_SCRIPT), await buildClassicScript(config, 'src/embed/loader.ts'))
      await writeFile(path.join(outDir, EMBED_PAGE), await embedPage(config))
    },
  }
}

async function embedPage(config: ResolvedConfig): Promise<string> {
  const inline = async (entry: string) =>
    (await buildClassicScript(config, entry)).replace(/<\/script/gi, () => '<\\/script')
  const [ask, script] = await Promise.all([inline('src/embed/ask-offers.ts'), inline('src/embed/frame.ts')])
  const css = await readFile(path.resolve(config.root, 'src/embed/frame.css'), 'utf8')
  const api = apiOrigin(config)
  // The first script asks for the offers before anything else is parsed; the frame's script, in the head too,
  // renders them once the body is there.
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n' +
    (api ? `<link rel="preconnect" href="${api}" crossorigin>\n` : '') +
    `<script>${ask}</script>\n` +
    '<title>Recommended newsletters · Growletter</title><meta name="robots" content="noindex">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">\n' +
    `<style>${css.replace(/\s*\n\s*/g, '')}</style>\n<script>${script}</script>\n</head>\n<body>\n` +
    `${FRAME_BODY}\n</body>\n</html>\n`
  )
}

/** The API's origin, for the frame's preconnect (the script's requests go there). */
function apiOrigin(config: ResolvedConfig): string | null {
  const url = loadEnv(config.mode, config.envDir || config.root, 'VITE_').VITE_SUPABASE_URL
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}

/**
 * One entry as one minified classic script, with the app's environment and aliases. `@/config/env` waits (top-level
 * await) for zod when the environment is broken, which a classic script cannot do: here it is the quick check alone.
 */
async function buildClassicScript(config: ResolvedConfig, entry: string): Promise<string> {
  const ENV = '\0embed-env'
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    envDir: config.envDir,
    logLevel: 'error',
    resolve: {
      alias: [
        { find: /^@\/config\/env$/, replacement: ENV },
        { find: '@', replacement: path.resolve(config.root, 'src') },
      ],
    },
    plugins: [
      {
        name: 'embed-env',
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
      lib: { entry: path.resolve(config.root, entry), formats: ['iife'], name: 'growletterEmbed', fileName: 'embed' },
    },
  })
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
  if (chunks.length !== 1) throw new Error(`embed: ${entry} should build to one chunk, not ${chunks.length}`)
  return chunks[0]!.code
}
