/**
 * The database's own calls to the scheduled functions (deliver-webhooks, deliver-esp, send-payouts,
 * send-notifications). pg_net sends `x-functions-secret` with Vault's `functions_secret`; the functions hold the
 * same value as FUNCTIONS_SECRET. A credential that opens these four functions and nothing else, in place of the
 * legacy service-role JWT (which opened the whole database, and is retired with the legacy keys). The functions
 * are `verify_jwt = false`: no JWT comes with these calls, so this check is the whole gate.
 */
import { envVar } from './env.ts'
import { HttpError } from './http.ts'

export const FUNCTIONS_SECRET_HEADER = 'x-functions-secret'

const encoder = new TextEncoder()
const sha256 = async (value: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value)))

/**
 * Equal strings, in a time that does not depend on where they differ: both are hashed first, so the comparison
 * always runs over 32 bytes whatever the lengths, and every byte is compared.
 */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([sha256(a), sha256(b)])
  let difference = 0
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ y[i]!
  return difference === 0
}

/**
 * Lets the request through only when it carries the functions secret: 403 with `refusal` otherwise. Without
 * FUNCTIONS_SECRET set the function cannot tell the database from anyone, so it refuses every call and says which
 * setting is missing (a 500, logged: an operator's mistake, not the caller's).
 */
export async function requireFunctionsSecret(req: Request, refusal: string): Promise<void> {
  const expected = envVar('FUNCTIONS_SECRET')
  if (!expected) {
    throw new Error(
      'FUNCTIONS_SECRET is not set: set it (supabase secrets set FUNCTIONS_SECRET=…) to the value of the Vault ' +
        'secret functions_secret, which the database sends these functions',
    )
  }
  const sent = req.headers.get(FUNCTIONS_SECRET_HEADER)
  if (sent === null || !(await constantTimeEqual(sent, expected))) throw new HttpError(403, refusal)
}
