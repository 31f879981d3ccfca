/**
 * For pages an auth email link lands on (/dashboard after confirming, /reset-password, /): reads the URL
 * hash once, starts the session it carries, clears it from the address bar, and reports when the app's
 * session state has caught up with the new user (so redirects by user type use the right type).
 */
import { useEffect, useRef, useState } from 'react'
import { useSession } from '@/lib/session'
import { clearAuthHash, isStaleUrlSession, parseAuthHash } from '../auth-hash'
import { startSessionFromHash } from '../api/auth-hash-session-request'
import { errorText } from '@/components/error-text'

export type AuthHashState =
  | { status: 'none' }
  | { status: 'pending' }
  | { status: 'ready'; type: string | null }
  | { status: 'error'; message: string }

export function useAuthHashSession(): AuthHashState {
  // No window when the page is prerendered at build time: no auth link there.
  const [hash] = useState(() => parseAuthHash(typeof window === 'undefined' ? '' : window.location.hash))
  const [started, setStarted] = useState<{ userId: string; type: string | null } | null>(null)
  const [error, setError] = useState<string | null>(hash.kind === 'error' ? hash.description : null)
  const { user } = useSession()
  const once = useRef(false)

  useEffect(() => {
    if (once.current || hash.kind === 'none') return
    once.current = true
    clearAuthHash()
    if (hash.kind !== 'session') return
    if (isStaleUrlSession(hash))
      console.warn('The session in this link was issued more than 120 s ago; check the device clock.')
    startSessionFromHash(hash)
      .then(({ user: next, type }) =>
        next ? setStarted({ userId: next.id, type }) : setError('This link did not sign you in.'),
      )
      .catch((cause: unknown) => setError(errorText(cause)))
  }, [hash])

  if (hash.kind === 'none') return { status: 'none' }
  if (error) return { status: 'error', message: error }
  if (started && user?.id === started.userId) return { status: 'ready', type: started.type }
  return { status: 'pending' }
}
