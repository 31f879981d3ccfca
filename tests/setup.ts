import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { server } from './msw/server'

// `npm test` runs this suite beside the end-to-end one on two cores: a screen that takes longer than Testing
// Library's default second to appear there is slow, not wrong. What a test asserts is unchanged.
configure({ asyncUtilTimeout: 3000 })

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
