/**
 * MSW server for SPA tests. Handlers are shaped like the real API (`/rest/v1/<table>`,
 * `/rest/v1/rpc/<fn>`, `/auth/v1/*`, `/functions/v1/*`); any request without a handler fails the test.
 */
import { setupServer } from 'msw/node'

export const TEST_SUPABASE_URL = 'http://supabase.test'
export const restUrl = (path: string) => `${TEST_SUPABASE_URL}/rest/v1/${path}`
export const authUrl = (path: string) => `${TEST_SUPABASE_URL}/auth/v1/${path}`
export const functionsUrl = (name: string) => `${TEST_SUPABASE_URL}/functions/v1/${name}`

export const server = setupServer()

/**
 * The arguments of an rpc called with `{ get: true }` (read-only functions, issue 27): supabase-js sends them in the
 * query string; numbers come back as numbers, everything else as the string sent.
 */
export function rpcArgs(request: Request): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const [name, value] of new URL(request.url).searchParams) {
    args[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value
  }
  return args
}
