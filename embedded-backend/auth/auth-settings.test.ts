// How the auth API reads supabase/config.toml: redirect allow-list, durations, and the e2e rate-limit scale.
import { afterEach, describe, expect, it } from 'vitest'
import type { BackendContext } from '../context'
import { authSettings, durationSeconds, safeRedirect } from './settings'

const ctx = (auth: Record<string, unknown>) => ({ config: { auth } }) as unknown as BackendContext

describe('auth settings', () => {
  const settings = authSettings(
    ctx({
      site_url: 'http://127.0.0.1:5173',
      additional_redirect_urls: ['http://localhost:5173', 'https://*.growletter.app/**'],
    }),
  )

  it('accepts redirects to the site URL, an allowed URL, or a matching glob', () => {
    expect(safeRedirect(settings, 'http://127.0.0.1:5173/dashboard')).toBe('http://127.0.0.1:5173/dashboard')
    expect(safeRedirect(settings, 'http://localhost:5173/update-password')).toBe(
      'http://localhost:5173/update-password',
    )
    expect(safeRedirect(settings, 'https://preview.growletter.app/reset')).toBe('https://preview.growletter.app/reset')
  })

  it('falls back to the site URL for anything else', () => {
    expect(safeRedirect(settings, 'https://evil.example/')).toBe('http://127.0.0.1:5173')
    expect(safeRedirect(settings, 'https://evil.example/?x=.growletter.app/')).toBe('http://127.0.0.1:5173')
    expect(safeRedirect(settings, 'http://127.0.0.1:5174/')).toBe('http://127.0.0.1:5173')
    expect(safeRedirect(settings, 'javascript:alert(1)')).toBe('http://127.0.0.1:5173')
    expect(safeRedirect(settings, null)).toBe('http://127.0.0.1:5173')
  })

  it('reads Supabase CLI durations', () => {
    expect(durationSeconds('1s', 60)).toBe(1)
    expect(durationSeconds('5m', 60)).toBe(300)
    expect(durationSeconds('2h', 60)).toBe(7200)
    expect(durationSeconds('soon', 60)).toBe(60)
  })

  afterEach(() => {
    delete process.env.GROWLETTER_AUTH_RATE_LIMIT_SCALE
  })

  it('scales every rate limit by GROWLETTER_AUTH_RATE_LIMIT_SCALE', () => {
    const config = { rate_limit: { email_sent: 30, sign_in_sign_ups: 60, token_verifications: 60 } }
    expect(authSettings(ctx(config)).rateLimit.signInSignUps).toBe(60)
    process.env.GROWLETTER_AUTH_RATE_LIMIT_SCALE = '10'
    expect(authSettings(ctx(config)).rateLimit).toMatchObject({
      emailSent: 300,
      signInSignUps: 600,
      tokenVerifications: 600,
    })
  })
})
