import { describe, expect, it } from 'vitest'
import { forgetRegistration, readRegistration, rememberRegistration } from '@/features/auth/registration-storage'
import { isStaleUrlSession, parseAuthHash } from '@/features/auth/auth-hash'
import { siteOrigin } from '@/features/auth/site-url'
import { parseEnv } from '@/config/env'

describe('registration details in local storage (SPEC §3 keys)', () => {
  it('stores the intended type and the names under the SPEC keys', () => {
    rememberRegistration({ userType: 'publisher', firstName: ' Pat ', lastName: 'Publisher' })
    expect(localStorage.getItem('intended_user_type')).toBe('publisher')
    expect(localStorage.getItem('user_full_name')).toBe('Pat Publisher')
    expect(localStorage.getItem('user_first_name')).toBe('Pat')
    expect(localStorage.getItem('user_last_name')).toBe('Publisher')
    expect(readRegistration()).toEqual({
      userType: 'publisher',
      fullName: 'Pat Publisher',
      firstName: 'Pat',
      lastName: 'Publisher',
    })
  })

  it('never reads admin as an intended type', () => {
    localStorage.setItem('intended_user_type', 'admin')
    expect(readRegistration().userType).toBeNull()
  })

  it('forgets them after use', () => {
    rememberRegistration({ userType: 'advertiser', firstName: 'Ada', lastName: 'Lovelace' })
    forgetRegistration()
    expect(localStorage.length).toBe(0)
  })
})

describe('links from auth emails', () => {
  it('reads a session from the hash', () => {
    expect(
      parseAuthHash('#access_token=a.b.c&refresh_token=r1&expires_in=3600&token_type=bearer&type=recovery'),
    ).toEqual({
      kind: 'session',
      accessToken: 'a.b.c',
      refreshToken: 'r1',
      type: 'recovery',
      issuedAt: null,
    })
  })

  it('flags a URL session issued more than 120 s ago (SPEC §9)', () => {
    const hash = parseAuthHash('#access_token=a.b.c&refresh_token=r1&expires_at=10000&expires_in=3600&type=signup')
    if (hash.kind !== 'session') throw new Error('expected a session')
    expect(hash.issuedAt).toBe(6400)
    expect(isStaleUrlSession(hash, 6400 + 119)).toBe(false)
    expect(isStaleUrlSession(hash, 6400 + 121)).toBe(true)
  })

  it('reads an error from the hash', () => {
    expect(
      parseAuthHash(
        '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
      ),
    ).toEqual({
      kind: 'error',
      code: 'otp_expired',
      description: 'Email link is invalid or has expired',
    })
  })

  it('ignores other hashes', () => {
    expect(parseAuthHash('#pricing')).toEqual({ kind: 'none' })
    expect(parseAuthHash('')).toEqual({ kind: 'none' })
  })
})

describe('redirect origin (SPEC §7)', () => {
  it('uses the production origin when VITE_PUBLIC_SITE_URL is set', () => {
    expect(siteOrigin('https://growletter.app/', 'http://127.0.0.1:5173')).toBe('https://growletter.app')
  })

  it('uses the current origin otherwise', () => {
    expect(siteOrigin(undefined, 'http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173')
  })

  it('accepts an optional public site URL and rejects a malformed one', async () => {
    const base = { VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'x'.repeat(40) }
    expect((await parseEnv({ ...base, VITE_PUBLIC_SITE_URL: 'https://growletter.app' })).VITE_PUBLIC_SITE_URL).toBe(
      'https://growletter.app',
    )
    expect((await parseEnv(base)).VITE_PUBLIC_SITE_URL).toBeUndefined()
    await expect(parseEnv({ ...base, VITE_PUBLIC_SITE_URL: 'not a url' })).rejects.toThrow()
  })
})
