import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import type { User } from '@supabase/supabase-js'
import { accessTokenAal, pickUserType, resolveUserType, sessionNeedsMfa } from '@/lib/session'
import { restUrl, server } from '../testing/msw-server'
import { ADVERTISER, accessToken, authSession, authUser } from '../testing/auth-fixtures'

const user = (metadataType?: string) =>
  authUser({ ...ADVERTISER, metadata: { user_type: metadataType } }) as unknown as User

describe('user type resolution (SPEC §2, §6)', () => {
  it('takes the profile first', () => {
    expect(pickUserType('publisher', 'advertiser')).toBe('publisher')
    expect(pickUserType('admin', 'publisher')).toBe('admin')
  })

  it('falls back to the account metadata, then advertiser', () => {
    expect(pickUserType(undefined, 'publisher')).toBe('publisher')
    expect(pickUserType(null, undefined)).toBe('advertiser')
    expect(pickUserType('nonsense', 'also nonsense')).toBe('advertiser')
  })

  it('never makes anyone admin from metadata a user can write', () => {
    expect(pickUserType(undefined, 'admin')).toBe('advertiser')
  })

  it('reads the profile through the API', async () => {
    server.use(http.get(restUrl('profiles'), () => HttpResponse.json([{ user_type: 'publisher' }])))
    await expect(resolveUserType(user('advertiser'))).resolves.toBe('publisher')
  })

  it('uses the metadata when there is no profile', async () => {
    server.use(http.get(restUrl('profiles'), () => HttpResponse.json([])))
    await expect(resolveUserType(user('publisher'))).resolves.toBe('publisher')
  })

  it('sends the user to the advertiser side when the lookup fails', async () => {
    server.use(
      http.get(restUrl('profiles'), () =>
        HttpResponse.json({ code: 'XX000', message: 'boom', details: null, hint: null }, { status: 500 }),
      ),
    )
    await expect(resolveUserType(user('publisher'))).resolves.toBe('advertiser')
  })
})

describe('second factor owed', () => {
  it('reads the aal claim of an access token', () => {
    expect(accessTokenAal(accessToken('u', 'aal2'))).toBe('aal2')
    expect(accessTokenAal('not-a-jwt')).toBeNull()
  })

  it('is owed only with a verified factor and a password-only session', () => {
    const withFactor = { ...ADVERTISER, factors: [{ id: 'f1', status: 'verified' as const }] }
    expect(sessionNeedsMfa(authSession(withFactor, 'aal1') as never)).toBe(true)
    expect(sessionNeedsMfa(authSession(withFactor, 'aal2') as never)).toBe(false)
    expect(
      sessionNeedsMfa(authSession({ ...ADVERTISER, factors: [{ id: 'f1', status: 'unverified' }] }) as never),
    ).toBe(false)
    expect(sessionNeedsMfa(null)).toBe(false)
  })
})
