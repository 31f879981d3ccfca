/**
 * The app's session state (SPEC §3 "App session state"): session, user, isLoading, userType (default
 * advertiser), emailVerified. One provider listens to supabase-js auth events (SPEC §4: signed in, token
 * refreshed, signed out, password recovery, user updated, MFA verified) and every page reads it through
 * `useSession()`. The user type comes from the profile first, then the account metadata, else advertiser.
 */
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js'
import { startAuthIfNeeded, supabase } from './supabase'

export type UserType = 'advertiser' | 'publisher' | 'admin'

export type SessionState = {
  session: Session | null
  user: User | null
  isLoading: boolean
  userType: UserType
  emailVerified: boolean
  /** The last auth event, e.g. PASSWORD_RECOVERY, for pages that react to it. */
  lastEvent: AuthChangeEvent | null
  /** Signed in with the password only while the account has a verified TOTP factor: the code is still owed. */
  needsMfa: boolean
}

const SessionContext = createContext<SessionState | null>(null)

export const isUserType = (value: unknown): value is UserType =>
  value === 'advertiser' || value === 'publisher' || value === 'admin'

/**
 * Profile first, then account metadata, default advertiser (SPEC §2, §6). Metadata can never make anyone
 * admin: only the profile (changed by an admin) can.
 */
export function pickUserType(profileType: unknown, metadataType: unknown): UserType {
  if (isUserType(profileType)) return profileType
  return isUserType(metadataType) && metadataType !== 'admin' ? metadataType : 'advertiser'
}

/** SPEC §2: a failed profile lookup sends the user to the advertiser dashboard. */
export async function resolveUserType(user: User): Promise<UserType> {
  const { data, error } = await supabase.from('profiles').select('user_type').eq('id', user.id).maybeSingle()
  if (error) return 'advertiser'
  return pickUserType((data as { user_type?: unknown } | null)?.user_type, user.user_metadata?.user_type)
}

/** The `aal` claim of an access token (aal1 = password only, aal2 = second factor verified). */
export function accessTokenAal(accessToken: string | undefined): string | null {
  const payload = accessToken?.split('.')[1]
  if (!payload) return null
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    const aal = (JSON.parse(json) as { aal?: unknown }).aal
    return typeof aal === 'string' ? aal : null
  } catch {
    return null
  }
}

export function sessionNeedsMfa(session: Session | null): boolean {
  const verified = session?.user?.factors?.some((factor) => factor.status === 'verified') ?? false
  return verified && accessTokenAal(session?.access_token) !== 'aal2'
}

export function SessionProvider({ children }: { children: ReactNode }) {
  // Decided during the first render, before any page's effect can consume an auth link's hash: with no stored
  // session and no auth link, the visitor is signed out at once and auth-js is not even downloaded.
  const [state, setState] = useState<{ session: Session | null; userType: UserType; isLoading: boolean }>(() => ({
    session: null,
    userType: 'advertiser',
    isLoading: startAuthIfNeeded(),
  }))
  const [lastEvent, setLastEvent] = useState<AuthChangeEvent | null>(null)
  // The type of the user it was resolved for: token refreshes keep it instead of asking the profile again.
  const resolved = useRef<{ userId: string; type: UserType } | null>(null)

  useEffect(() => {
    let active = true
    const apply = async (next: Session | null) => {
      let type: UserType = 'advertiser'
      if (next?.user) {
        const known = resolved.current
        type =
          known && known.userId === next.user.id
            ? known.type
            : await resolveUserType(next.user).catch((): UserType => 'advertiser')
        resolved.current = { userId: next.user.id, type }
      } else {
        resolved.current = null
      }
      // Session and type change together, so no page ever sees a new user with the previous user's type.
      if (active) setState({ session: next, userType: type, isLoading: false })
    }
    const { data } = supabase.auth.onAuthStateChange((event, next) => {
      setLastEvent(event)
      // Supabase forbids awaiting other supabase calls inside this callback: defer the profile lookup.
      setTimeout(() => void apply(next), 0)
    })
    return () => {
      active = false
      data.subscription.unsubscribe()
    }
  }, [])

  const value = useMemo<SessionState>(
    () => ({
      session: state.session,
      user: state.session?.user ?? null,
      isLoading: state.isLoading,
      userType: state.userType,
      emailVerified: Boolean(state.session?.user?.email_confirmed_at),
      lastEvent,
      needsMfa: sessionNeedsMfa(state.session),
    }),
    [state, lastEvent],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession(): SessionState {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession must be used inside <SessionProvider>')
  return value
}
