/**
 * Signs a test user in for route tests: a stored session plus the profile lookup that decides the user
 * type (SessionProvider reads `profiles.user_type`) and the shell's wallet initialisation. Shared by the
 * dashboard tests.
 */
import { http, HttpResponse } from 'msw'
import { restUrl, server } from './msw-server'
import { storeTestSession } from './render-route'

export const ADVERTISER = { id: '00000000-0000-4000-8000-0000000000a1', email: 'advertiser@growletter.test' }
export const ADMIN = { id: '00000000-0000-4000-8000-0000000000f1', email: 'admin@growletter.test' }

export function signInAs(
  userType: 'advertiser' | 'admin' | 'publisher',
  user = userType === 'admin' ? ADMIN : ADVERTISER,
) {
  storeTestSession({ ...user, userType })
  server.use(
    http.get(restUrl('profiles'), () => HttpResponse.json([{ id: user.id, user_type: userType }])),
    // What the shell does once per signed-in user (wallet initialisation, SPEC §6): answered, not under test here.
    http.post(restUrl('rpc/ensure_wallet_exists'), () => HttpResponse.json({ id: 'w1', user_id: user.id, balance: 0 })),
    http.post(restUrl('rpc/claim_signup_bonus'), () => HttpResponse.json({ paid: false, balance: 0 })),
  )
  return user
}

/** A PostgREST answer to a counted select: the rows plus `Content-Range: from-to/total`. */
export function countedJson(rows: unknown[], total: number, from = 0) {
  const range = rows.length ? `${from}-${from + rows.length - 1}/${total}` : `*/${total}`
  return HttpResponse.json(rows, { headers: { 'Content-Range': range } })
}

/** A PostgREST error body as the backend sends it. */
export function postgrestError(status: number, message: string, code = 'P0001') {
  return HttpResponse.json({ code, message, details: null, hint: null }, { status })
}
