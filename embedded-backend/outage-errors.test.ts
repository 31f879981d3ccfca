// Outages answer as outages (issue 28): a database that cannot be reached is a 503 that names no host or port,
// a timeout says what a person can do, and an auth server that cannot be reached is not "sign in".
import path from 'node:path'
import net from 'node:net'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { errorResponse } from './rest/errors'
import { createFunctionsHandler } from './functions/index'
import { keys, request, runnerContext } from './testing/functions-helpers'
import { userToken } from './testing/rest-fixture'

/** A loopback port nothing listens on (bound, read, released). */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('REST while the database is down', () => {
  it('answers 503 PGRST001 for a refused connection, without the database address', async () => {
    const port = await closedPort()
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
    const refused = await client.connect().then(
      () => null,
      (error: unknown) => error,
    )
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED')
    const answer = errorResponse(refused, 'anon')
    expect(answer.status).toBe(503)
    const body = JSON.parse(String(answer.body))
    expect(body).toMatchObject({
      code: 'PGRST001',
      message: 'Could not connect with the database due to an internal error.',
    })
    expect(String(answer.body)).not.toContain('127.0.0.1')
    expect(String(answer.body)).not.toContain(String(port))
  })

  it('answers 503 for a connection that broke mid-request and for "too many connections"', () => {
    expect(errorResponse(new Error('Connection terminated unexpectedly'), 'authenticated').status).toBe(503)
    const tooMany = Object.assign(new Error('sorry, too many clients already'), { code: '53300' })
    expect(errorResponse(tooMany, 'anon').status).toBe(503)
  })

  it('keeps client mistakes 4xx: an error with a SQLSTATE is still mapped by its class', () => {
    const badInput = Object.assign(new Error('invalid input syntax for type uuid: "x"'), { code: '22P02' })
    expect(errorResponse(badInput, 'anon').status).toBe(400)
  })

  it('tells a person to try again when a statement times out, keeping PostgreSQL’s code and message', () => {
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })
    const answer = errorResponse(timeout, 'authenticated')
    expect(JSON.parse(String(answer.body))).toEqual({
      code: '57014',
      message: 'canceling statement due to statement timeout',
      details: null,
      hint: 'The service is busy: try again in a moment.',
    })
  })
})

describe('create-checkout-session while the auth server is down', () => {
  const functionsDir = path.resolve(import.meta.dirname, '../supabase/functions')
  // runnerContext's API address has nothing listening: the function's getUser call cannot connect.
  const handler = createFunctionsHandler(runnerContext(), { functionsDir, timeoutMs: 20_000, log: () => {} })
  afterAll(() => handler.close())

  it('says to try again, not to sign in', async () => {
    const token = await userToken('7d1c0e52-4a55-4d7e-9a38-5f4b1f1c2a10')
    const res = await handler(
      request('create-checkout-session', {
        headers: { authorization: `Bearer ${token}`, apikey: keys.anonKey, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ amount: 25 })),
        role: 'authenticated',
      }),
    )
    expect(res.status).toBe(503)
    expect(JSON.parse(String(res.body))).toEqual({
      error: 'We could not check your sign-in just now. Try again in a moment.',
    })
  })
})
