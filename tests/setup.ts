import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { cleanup } from '@testing-library/react'
import { server } from './msw/server'

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
