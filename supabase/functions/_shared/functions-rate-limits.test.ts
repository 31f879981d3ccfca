// On hosted Supabase one function runs in many isolates at once, each with its own memory. The functions' rate limits
// are counted in the database (take_function_allowance), so they hold across them: here two separate Deno processes
// (two function runners) serve the same function against one backend, and the limit counts their calls together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFunctionsHandler } from '../../../embedded-backend/functions/index'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import { bodyOf, request, runnerContext } from '../../../embedded-backend/testing/functions-helpers'

let backend: Backend
let first: ReturnType<typeof createFunctionsHandler>
let second: ReturnType<typeof createFunctionsHandler>

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: false, cron: false })
  const ctx = {
    ...runnerContext(),
    apiUrl: backend.apiUrl,
    anonKey: backend.anonKey,
    serviceRoleKey: backend.serviceRoleKey,
  }
  first = createFunctionsHandler(ctx, { log: () => {} })
  second = createFunctionsHandler(ctx, { log: () => {} })
})
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()])
  await backend?.close()
})

const call = (runner: typeof first, name: string, body: unknown, ip: string) =>
  runner(
    request(name, {
      headers: { authorization: `Bearer ${backend.anonKey}`, apikey: backend.anonKey },
      body: Buffer.from(JSON.stringify(body)),
      ip,
    }),
  )

describe('rate limits across isolates', () => {
  it('counts one inbox’s backup confirmations (3 an hour) over two function processes together', async () => {
    const email = `limited-${Date.now()}@example.com`
    const statuses: number[] = []
    // Each process alone sees at most two requests: a counter in its memory would allow all four.
    for (const runner of [first, second, first, second])
      statuses.push((await call(runner, 'send-backup-confirmation', { email }, '203.0.113.10')).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    const refused = await call(first, 'send-backup-confirmation', { email }, '203.0.113.10')
    expect(refused.headers?.['retry-after']).toMatch(/^\d+$/)
    expect(bodyOf(refused.body)).toEqual({
      success: false,
      error: 'Too many requests. Please wait a few minutes and try again.',
    })
  })
})
