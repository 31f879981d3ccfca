/**
 * Renders the real route table at a URL, inside the real providers, for integration tests against MSW.
 * `storeTestSession` puts a signed-in session where supabase-js looks for it on start, so a test can open a
 * signed-in page without driving the login form (the profile lookup still goes through MSW).
 */
import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { routes } from '@/app/router'
import { AppProviders } from '@/app/providers'
import { TEST_SUPABASE_URL } from './msw-server'

export function renderRoute(initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] })
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  )
  return { ...view, router }
}

export type TestUser = {
  id: string
  email: string
  userType?: 'advertiser' | 'publisher' | 'admin'
  /** Admins default to a session raised by their TOTP code, as the database requires for admin tools. */
  aal?: 'aal1' | 'aal2'
}

const base64url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')

/** A session that supabase-js accepts without refreshing (it expires in an hour). */
export function storeTestSession({
  id,
  email,
  userType = 'advertiser',
  aal = userType === 'admin' ? 'aal2' : 'aal1',
}: TestUser) {
  const expiresAt = Math.floor(Date.now() / 1000) + 3600
  const claims = { sub: id, email, role: 'authenticated', aud: 'authenticated', exp: expiresAt, aal }
  const accessToken = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.signature`
  const now = new Date().toISOString()
  const session = {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: expiresAt,
    refresh_token: 'test-refresh-token',
    user: {
      id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      email_confirmed_at: now,
      phone: '',
      confirmed_at: now,
      last_sign_in_at: now,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { user_type: userType },
      identities: [],
      factors:
        aal === 'aal2'
          ? [
              {
                id: 'test-factor',
                factor_type: 'totp',
                status: 'verified',
                friendly_name: null,
                created_at: now,
                updated_at: now,
              },
            ]
          : [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    },
  }
  const storageKey = `sb-${new URL(TEST_SUPABASE_URL).hostname.split('.')[0]}-auth-token`
  window.localStorage.setItem(storageKey, JSON.stringify(session))
  return session
}
