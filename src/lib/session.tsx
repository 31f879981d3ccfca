/**
 * The app's session state (SPEC §3 "App session state"): session, user, isLoading, userType (default
 * advertiser), emailVerified. One provider listens to supabase-js auth events (SPEC §4: signed in, token
 * refreshed, signed out, password recovery, user updated, MFA verified) and every page reads it through
 * `useSession()`. The user type comes from the profile first, then the account metadata, else advertiser.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js'
import { supabase } from './supabase'

export type UserType = 'advertiser' | 'publisher' | 'admin'

export type SessionState = {
  session: Session | null
  user: User | null
  isLoading: boolean
  userType: UserType
  emailVerified: boolean
  /** The last auth event, e.g. PASSWORD_RECOVERY, for pages that react to it. */
  lastEvent: AuthChangeEvent | null
}

const SessionContext = createContext<SessionState | null>(null)

export const isUserType = (value: unknown): value is UserType =>
  value === 'advertiser' || value === 'publisher' || value === 'admin'

/** Profile first, then account metadata, default advertiser (SPEC §2, §6). */
export async function resolveUserType(user: User): Promise<UserType> {
  const { data, error } = await supabase.from('profiles').select('user_type').eq('id', user.id).maybeSingle()
  const fromProfile = !error ? (data as { user_type?: unknown } | null)?.user_type : undefined
  if (isUserType(fromProfile)) return fromProfile
  const fromMetadata = user.user_metadata?.user_type
  return isUserType(fromMetadata) && fromMetadata !== 'admin' ? fromMetadata : 'advertiser'
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null)
  const [userType, setUserType] = useState<UserType>('advertiser')
  const [isLoading, setIsLoading] = useState(true)
  const [lastEvent, setLastEvent] = useState<AuthChangeEvent | null>(null)

  useEffect(() => {
    let active = true
    const apply = async (next: Session | null) => {
      setSession(next)
      if (next?.user) {
        const type = await resolveUserType(next.user).catch(() => 'advertiser' as const)
        if (active) setUserType(type)
      } else {
        setUserType('advertiser')
      }
      if (active) setIsLoading(false)
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
      session,
      user: session?.user ?? null,
      isLoading,
      userType,
      emailVerified: Boolean(session?.user?.email_confirmed_at),
      lastEvent,
    }),
    [session, isLoading, userType, lastEvent],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession(): SessionState {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession must be used inside <SessionProvider>')
  return value
}
