/**
 * Starts the end-to-end stack: the embedded backend on a fresh in-memory, seeded database, then the SPA
 * built against it and served by `vite preview`. Playwright starts this and stops it when done.
 */
import { build, preview } from 'vite'
import { startBackend } from '../embedded-backend/server'
import { E2E } from './ports'

// Every browser request of the suite comes from 127.0.0.1: scale the per-IP auth limits so a long run
// never meets them, while the limits themselves are tested in the backend suite.
process.env.GROWLETTER_AUTH_RATE_LIMIT_SCALE ??= '20'

const backend = await startBackend({
  port: E2E.apiPort,
  mailPort: E2E.mailPort,
  smtpPort: E2E.smtpPort,
  // A fresh in-memory database every run: never the developer's supabase/.local/db, never DATABASE_URL.
  dataDir: null,
  databaseUrl: '',
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
const server = await preview({
  preview: { port: E2E.appPort, host: '127.0.0.1', strictPort: true },
  build: { outDir: 'dist-e2e' },
})
console.log(`e2e stack ready: app ${E2E.appUrl}, api ${backend.apiUrl}, mailbox ${backend.mailboxUrl}`)

const stop = async () => {
  await server.close()
  await backend.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
