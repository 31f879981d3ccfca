/**
 * Signed-in sessions reused within a Playwright worker. A spec whose subject is not the sign-in itself starts from
 * the session its worker's first sign-in of that account saved (the app keeps it in local storage, as a storage
 * state would carry it), instead of loading /login and posting the password again: each UI sign-in cost a cold load
 * of the app and a password check. The sign-in form itself is tested by e2e/accounts.spec.ts, and the first
 * sign-in of each account in each worker still goes through the form.
 */
import type { Page } from '@playwright/test'
import { apiKeys } from '../../embedded-backend/keys'
import { E2E } from '../ports'

type Saved = { key: string; value: string; accessToken: string }
const saved = new Map<string, Saved>()

/** The supabase-js session the app keeps in local storage, read from a signed-in page. */
export async function readAuthSession(page: Page): Promise<Saved | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.+-auth-token$/.test(k))
    if (!key) return null
    const value = localStorage.getItem(key)!
    return { key, value, accessToken: (JSON.parse(value) as { access_token: string }).access_token }
  })
}

export async function saveSession(page: Page, email: string) {
  const session = await readAuthSession(page)
  if (session) saved.set(email, session)
}

/**
 * Puts the worker's saved session of `email` into the page's local storage before its first document loads, as a
 * tab opened beside a signed-in one finds it. False (and nothing changed) when there is none, or when the auth API
 * says it has ended since (a test signed this account out everywhere): then the caller signs in through the form.
 */
export async function restoreSession(page: Page, email: string): Promise<boolean> {
  const session = saved.get(email)
  if (!session) return false
  const { publishableKey } = await apiKeys()
  const live = await page.request.get(`${E2E.apiUrl}/auth/v1/user`, {
    headers: { apikey: publishableKey, authorization: `Bearer ${session.accessToken}` },
  })
  if (!live.ok()) {
    saved.delete(email)
    return false
  }
  // Once per tab (sessionStorage marks it), on the app's own origin only: a later sign-out in the test stays signed out.
  await page.addInitScript(
    ({ origin, key, value }) => {
      if (window.location.origin !== origin || window.sessionStorage.getItem('e2e-session-restored')) return
      window.sessionStorage.setItem('e2e-session-restored', '1')
      window.localStorage.setItem(key, value)
    },
    { origin: E2E.appUrl, key: session.key, value: session.value },
  )
  return true
}
