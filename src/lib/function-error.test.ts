// The one reader of edge-function refusals: the function's `{ error }` words when it answered with them, the
// client's message otherwise, and the fallback when there is nothing readable at all.
import { describe, expect, it } from 'vitest'
import { FunctionsFetchError, FunctionsHttpError } from '@supabase/functions-js'
import { functionError, functionErrorBody, functionErrorMessage } from '@/lib/function-error'

const refused = (body: string, status = 400) =>
  new FunctionsHttpError(new Response(body, { status, headers: { 'content-type': 'application/json' } }))

describe('function errors', () => {
  it('read the function’s own message from its JSON answer', async () => {
    const error = refused(JSON.stringify({ error: 'The minimum deposit is 10 credits.' }))
    expect(await functionErrorMessage(error, 'fallback')).toBe('The minimum deposit is 10 credits.')
    expect((await functionError(error, 'fallback')).message).toBe('The minimum deposit is 10 credits.')
  })

  it('leave the body readable for the caller (the body is read from a clone)', async () => {
    const error = refused(JSON.stringify({ expired: true, error: 'This link has expired' }), 410)
    expect(await functionErrorBody(error)).toEqual({ expired: true, error: 'This link has expired' })
    expect(await (error.context as Response).json()).toEqual({ expired: true, error: 'This link has expired' })
  })

  it('fall back to the client’s message when the answer is not JSON or has no message', async () => {
    const notJson = refused('<html>Bad gateway</html>', 502)
    expect(await functionErrorBody(notJson)).toBeNull()
    expect(await functionErrorMessage(notJson, 'fallback')).toBe(notJson.message)
    expect(await functionErrorMessage(refused(JSON.stringify({ error: '' })), 'fallback')).toBe(notJson.message)
    const network = new FunctionsFetchError(new TypeError('Failed to fetch'))
    expect(await functionErrorBody(network)).toBeNull()
    expect(await functionErrorMessage(network, 'fallback')).toBe(network.message)
  })

  it('use the fallback when the error says nothing', async () => {
    expect(await functionErrorMessage(null, 'Please try again later')).toBe('Please try again later')
    expect(await functionErrorMessage(new Error(''), 'Please try again later')).toBe('Please try again later')
  })
})
