/**
 * Runs before every SPA test file. The unit project shares one module registry per worker (`isolate: false`
 * in vitest.config.ts), so the expensive, stateless parts — jsdom, React, Radix, the other packages in
 * node_modules — load once per worker instead of once per file. Our own modules do keep state (the lazily
 * loaded auth client, the toast facade, the MSW server), so each file starts by dropping the registry of
 * our modules: every file then evaluates `src` and `tests` afresh, as if it ran alone. That is why the MSW
 * server is imported after the reset: the test file must get the very instance this file starts.
 */
import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'

vi.resetModules()
const { server } = await import('./msw/server')

// A query that waits for a screen waits for the condition, not for a speed: on a busy two-core machine a
// lazily loaded page can take seconds to appear. The limit only stops a test that would otherwise hang.
configure({ asyncUtilTimeout: 15_000 })

beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      throw new Error(`Unhandled ${request.method} ${request.url}: add an MSW handler for it`)
    },
  }),
)
afterEach(() => {
  cleanup()
  server.resetHandlers()
  // Files that opt into the node environment have no browser storage.
  if (typeof window !== 'undefined') {
    window.localStorage.clear()
    window.sessionStorage.clear()
  }
})
afterAll(() => server.close())
