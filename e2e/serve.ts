/**
 * Starts the end-to-end stack: the embedded backend on a fresh seeded database, then the SPA built against it and
 * served by `vite preview`. Playwright starts this and stops it when done.
 *
 * The database is a PostgreSQL cluster of its own when Debian's postgresql is installed (as .ci/run installs it),
 * else an in-memory PGlite (`E2E_ENGINE=pglite` asks for PGlite anyway). PostgreSQL is what hosted Supabase runs, and
 * it serves the suite's requests for less CPU than PGlite's WebAssembly engine: the backend's share of the browser
 * lane (docs/decisions.md "The browser suite is kept cheap"). Both engines keep their own suites (backend and db).
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { gzipSync } from 'node:zlib'
import { build, preview, type Plugin } from 'vite'
import { startBackend } from '../embedded-backend/server'
import { startLocalPostgres } from '../scripts/local-postgres'
import { E2E } from './ports'

// Every browser request of the suite comes from 127.0.0.1: scale the per-IP auth limits so a long run
// never meets them, while the limits themselves are tested in the backend suite.
process.env.GROWLETTER_AUTH_RATE_LIMIT_SCALE ??= '20'

// A fresh database every run: never the developer's supabase/.local/db, never DATABASE_URL.
const postgres = process.env.E2E_ENGINE === 'pglite' ? null : startLocalPostgres(E2E.postgresPort)
console.log(`e2e database: ${postgres ? `PostgreSQL on port ${E2E.postgresPort}` : 'PGlite in memory'}`)
let postgresStopped = false
const stopPostgres = () => {
  if (postgresStopped) return
  postgresStopped = true
  postgres?.stop()
}
// A stack that dies while starting (a port already taken, a failing build) never reaches the stop below: its cluster,
// which runs in a session of its own, is stopped and removed as the process exits (stop() is synchronous).
process.once('exit', stopPostgres)
const backend = await startBackend({
  port: E2E.apiPort,
  mailPort: E2E.mailPort,
  smtpPort: E2E.smtpPort,
  dataDir: null,
  databaseUrl: postgres?.url ?? '',
  seed: true,
  siteUrl: E2E.appUrl,
  // Tests may give simulated visitors distinct addresses with this header, as a trusted proxy would;
  // requests without it (the browser's) are the socket's 127.0.0.1.
  clientIpHeader: 'x-forwarded-for',
})

process.env.VITE_SUPABASE_URL = backend.apiUrl
// The SPA sends the publishable key, as it does against hosted Supabase; the anon key stays set as .env.local has it.
process.env.VITE_SUPABASE_PUBLISHABLE_KEY = backend.publishableKey
process.env.VITE_SUPABASE_ANON_KEY = backend.anonKey
await build({ logLevel: 'warn', mode: 'production', build: { outDir: 'dist-e2e', emptyOutDir: true } })
// axe-core beside the app, for e2e/pages/axe.ts to load into a page as a script (only this test build has it).
copyFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), `dist-e2e/${E2E.axeScript}`)
const server = await preview({
  preview: { port: E2E.appPort, host: '127.0.0.1', strictPort: true },
  build: { outDir: 'dist-e2e' },
  plugins: [assetsFromMemory('dist-e2e')],
})
console.log(`e2e stack ready: app ${E2E.appUrl}, api ${backend.apiUrl}, mailbox ${backend.mailboxUrl}`)

/**
 * The build's content-hashed files (`/assets/*`) and axe-core's script, served from memory and gzipped once, as a static host's CDN serves
 * them, and cached by the browser for good (`immutable`: a hashed name never gets other content). `vite preview`
 * opened, read and gzipped each file anew for every request, and the browser asked again on every load of a context
 * (no Cache-Control: a 304 round trip per chunk, each one events through the DevTools pipe too); a context's later
 * loads now take the chunks from its cache. Everything else (HTML, the prerendered pages, the SPA fallback, the
 * embed's headers) is still `vite preview`'s. Six specs with reloads and several contexts (disputes, money-screens,
 * partners, deposits, embed, subscribers), alternating: 89.6 and 83.9 CPU-seconds before, 82.3, 78.4 and 76.7 after
 * (this server 15 → 13, the browser's processes 51–56 → 47–49).
 */
function assetsFromMemory(outDir: string): Plugin {
  const types: Record<string, string> = { js: 'text/javascript', css: 'text/css' }
  const files = new Map<string, { body: Buffer; gzip: Buffer | null; type: string }>()
  for (const name of readdirSync(`${outDir}/assets`)) {
    const type = types[name.slice(name.lastIndexOf('.') + 1)]
    if (!type) continue
    const body = readFileSync(`${outDir}/assets/${name}`)
    // As vite preview's compression did: text of 1 KB or more travels gzipped to a browser that accepts it.
    files.set(`/assets/${name}`, { body, gzip: body.length >= 1024 ? gzipSync(body) : null, type })
  }
  // axe-core for e2e/pages/axe.ts: made once per run, so no page of the run needs to ask for it twice either.
  const axe = readFileSync(`${outDir}/${E2E.axeScript}`)
  files.set(`/${E2E.axeScript}`, { body: axe, gzip: gzipSync(axe), type: 'text/javascript' })
  return {
    name: 'e2e-assets-from-memory',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(req.url?.split('?')[0] ?? '') : undefined
        if (!file) return next()
        const gzip = file.gzip !== null && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
        const body = gzip ? file.gzip! : file.body
        res.setHeader('Content-Type', `${file.type}; charset=utf-8`)
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
        res.setHeader('Vary', 'Accept-Encoding')
        if (gzip) res.setHeader('Content-Encoding', 'gzip')
        res.setHeader('Content-Length', body.length)
        res.end(req.method === 'HEAD' ? undefined : body)
      })
    },
  }
}

const stop = async () => {
  // The cluster first, synchronously: its server runs in a session of its own (pg_ctl), so nothing else would end it
  // if closing the app or the backend hung until Playwright's SIGKILL.
  stopPostgres()
  await server.close()
  await backend.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
