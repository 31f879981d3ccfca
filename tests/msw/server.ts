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
