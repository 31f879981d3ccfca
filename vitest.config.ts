// Test projects: `unit` (SPA, happy-dom + MSW), `backend` (the embedded backend's protocol tests),
// `db` (migrations, RLS matrix, money), `hosted` (the hosted lane, supabase/tests/hosted). The backend and db
// projects share one PGlite instance per worker and run their files one after another: PGlite costs ~450 MB and runs
// one transaction at a time.
// Tests live beside the code they test (docs/architecture.md "Layout"), so a project is the set of folders its
// kind of test lives in; scripts/test-layout.test.ts keeps every test file in a folder of code.
import { configDefaults, defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import path from 'node:path'

// The edge functions' code that needs no backend (the shared rules, the email layout and templates, the docs' list of
// functions) runs in the unit project; every other test under supabase/functions starts a backend.
const functionUnitTests = [
  'supabase/functions/*.test.ts',
  'supabase/functions/_shared/rules/**/*.test.ts',
  'supabase/functions/_shared/email-brand.test.ts',
  'supabase/functions/send-notifications/templates/**/*.test.ts',
]

// CPU_PER_FILE=<file>: the unit, backend and db projects write each test file's CPU-seconds there
// (embedded-backend/testing/cpu-per-file.ts); unset, nothing is loaded.
const cpuPerFile = process.env.CPU_PER_FILE ? ['embedded-backend/testing/cpu-per-file.ts'] : []

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      '@rules': path.resolve(import.meta.dirname, 'supabase/functions/_shared/rules'),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'unit',
          // happy-dom rather than jsdom: the same 624 tests pass on both, and happy-dom costs a third less CPU (59 → 39
          // CPU-seconds for this project on a quiet machine; docs/decisions.md "Start-up paid once: one module registry per worker, template databases").
          environment: 'happy-dom',
          // Every file of the project runs in it, the ESLint rule tests too: Vitest hands a worker on to the next file
          // only if that file's environment is the same, so the two files that asked for `node` replaced a worker at
          // each switch (six workers a run instead of two; a replaced happy-dom worker cost ~2.2 CPU-seconds to start
          // and load its packages again). src/testing/setup.ts refuses a file in another environment.
          include: [
            'src/**/*.test.{ts,tsx}',
            'eslint-rules/**/*.test.ts',
            'scripts/**/*.test.ts',
            'supabase/*.test.ts',
            ...functionUnitTests,
          ],
          setupFiles: ['src/testing/setup.ts', ...cpuPerFile],
          // One module registry per worker: the packages load once per worker rather than once per file (a fifth
          // of the CPU time); src/testing/setup.ts re-evaluates our own modules for every file and lets a file end only
          // when its lazy loads have landed, so no file sees another's state.
          isolate: false,
          // Packages that keep state at module level (sonner's toast store) are evaluated like our own modules, so
          // the per-file reset in src/testing/setup.ts starts them afresh too.
          server: { deps: { inline: ['sonner'] } },
          // Limits that only stop a hung test; no test waits for them. Screens are awaited by condition.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // The SPA under test talks to MSW at this origin, never to a running backend.
          // The SPA sends the publishable key; the anon key beside it, as .env.local has both, must go unused.
          env: {
            VITE_SUPABASE_URL: 'http://supabase.test',
            VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_test-key-for-msw-only_00000000',
            VITE_SUPABASE_ANON_KEY: 'test-anon-key-for-msw-only-0000',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'backend',
          environment: 'node',
          // The backend's own areas, the edge functions run end to end through it, and the API-level money and
          // suspension checks (supabase/tests/api) that need its gateway.
          include: [
            'embedded-backend/**/*.test.ts',
            'supabase/functions/**/*.test.ts',
            'supabase/tests/api/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...functionUnitTests],
          setupFiles: cpuPerFile,
          fileParallelism: false,
          // One module registry for the worker's files: every file starts its own backend (startTestBackend), so
          // no state is shared through modules, and loading them once instead of per file saves 40% of the CPU.
          isolate: false,
          // Limits that only stop a hung test (a test that builds a database of its own takes 30 s and more on a
          // busy two-core machine); no test waits for them.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'db',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts'],
          exclude: ['supabase/tests/hosted/**', 'supabase/tests/api/**'],
          setupFiles: cpuPerFile,
          fileParallelism: false,
          isolate: false,
          // Limits that only stop a hung test (a test that builds a database of its own takes 30 s and more on a
          // busy two-core machine); no test waits for them.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // The hosted lane: one file on a PostgreSQL cluster of its own prepared as hosted Supabase prepares one
          // (supabase/tests/hosted), run once beside the database suite (scripts/test.ts).
          name: 'hosted',
          environment: 'node',
          include: ['supabase/tests/hosted/**/*.test.ts'],
          // Limits that only stop a hung test; no test waits for them.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
