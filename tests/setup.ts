import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { server } from './msw/server'

// A test waits for a screen by its condition, never for a speed: on a busy two-core machine (the browser suite
// runs beside this one, CI may keep a core busy) the first render of a lazily loaded page can take seconds.
// The limit only stops a test that would otherwise hang; what a test asserts is unchanged. Files keep their
// own module registry (Vitest's default isolation): sharing one was faster but let one file's late async work
// (a lazily loaded page, an auth client's timers) reach into the next file.
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
