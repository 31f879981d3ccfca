import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import path from 'node:path'
import { earnPage, prerender } from './scripts/prerender-plugin.ts'
import { embed } from './scripts/embed-plugin.ts'

// React Router publishes a development build as the package's default export condition and a production build
// beside it that differs only by `ENABLE_DEV_WARNINGS = false`; the bundle takes the production one (the dev server
// and the tests keep the warnings).
const reactRouterProduction = path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production')

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), prerender(), earnPage(), embed()],
  resolve: {
    alias: [
      { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
      // Rules shared with the edge functions (deposit limits, payout minimum, price range): one module both import.
      { find: '@rules', replacement: path.resolve(import.meta.dirname, 'supabase/functions/_shared/rules') },
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: `${reactRouterProduction}/index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}/dom-export.mjs` },
          ]
        : []),
    ],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    // Every browser the build targets (es2022) preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page needs travels in one "shell" chunk instead of ~40 tiny ones: fewer requests
          // and ~10 KB less gzip per public route (measured with bench/bundle.ts). React stays separate:
          // grouping it in made every route heavier.
          groups: [
            {
              // What every page and the /earn fast path share (src/main.tsx): the magic link redirects with
              // this and its own chunk, without the shell's router, query cache and Supabase clients.
              name: 'entry',
              priority: 3,
              test: /vite[\\/]preload-helper|src[\\/](config[\\/](env|env-check|paths)|lib[\\/](storage-keys|toast|auth-storage-key|yield-to-main))\./,
            },
            {
              priority: 2,
              name: 'shell',
              test: /node_modules[\\/](react-router|@tanstack[\\/](query-core|react-query)|@radix-ui[\\/]react-(slot|compose-refs)|class-variance-authority|clsx|@supabase[\\/]postgrest-js|tslib|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|shared))|src[\\/](lib[\\/](supabase|lazy-auth|session|toast|toast-outlet|utils|storage-keys|query-client|deferred-hydration|format)|config[\\/](env|env-check|paths|brand)|components[\\/](ui[\\/]button|main-nav|page-spinner)|lib[\\/]page-title)\./,
            },
            {
              // Choosing a password (sign-up, reset, account): the shared rules, the forms' rules and the on-demand
              // leaked-password check in one chunk, not three of a few hundred bytes (the list itself loads apart).
              priority: 1,
              name: 'password-rules',
              // Not the modules they import (auth-rules.ts's email and name checks): the log-in page loads those.
              includeDependenciesRecursively: false,
              test: /(_shared[\\/]rules[\\/]password|src[\\/](lib[\\/]password-check|features[\\/]auth[\\/]password-rules))\./,
            },
            {
              // The magic link's second half at the destination (src/app/earn-entry.ts: the click's toast and
              // fingerprint) in one chunk instead of four of 0.1–1.6 KB, each compressed on its own. Not the
              // modules they import: /newsletters and the in-app /earn page load those with their own.
              priority: 1,
              name: 'earn-entry',
              includeDependenciesRecursively: false,
              test: /src[\\/](app[\\/]earn-entry|lib[\\/]device-info|features[\\/]magic-link[\\/](lib[\\/](earn-(click|pending|spinner|fast-path)|magic-link-(toasts|flow)|attribution-storage)|api[\\/](track-click-request|click-result)))\./,
            },
            {
              // The newsletter list (the page every magic link lands on): its route, cards, filters and subscribe
              // form in one chunk instead of seven, the largest 3.4 KB.
              priority: 1,
              name: 'newsletters',
              includeDependenciesRecursively: false,
              test: /src[\\/](app[\\/]routes[\\/]newsletters|features[\\/](newsletters[\\/](components[\\/](newsletter-(browser|card|filters)|source-banner)|api[\\/]active-campaigns-query|lib[\\/]source-banner)|subscriptions[\\/](components[\\/]subscribe-form|lib[\\/](subscribed-newsletters|use-subscribed-newsletters))))\./,
            },
            {
              // Small building blocks of the public pages (form fields, badges, the newsletter card's parts):
              // one chunk instead of a dozen of a few hundred bytes each, each compressed on its own.
              priority: 1,
              name: 'public',
              test: /src[\\/](components[\\/](ui[\\/](badge|input|label|skeleton)|entity-image|error-text|form-field)|lib[\\/](vocabulary-catalog|numbers|email-pattern|use-form-fields|use-debounced-search))\./,
            },
          ],
        },
      },
    },
  },
}))
