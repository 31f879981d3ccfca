/**
 * Admin tools need a session raised by a TOTP code (aal2): the database refuses every admin function and
 * admin-only row below it. An admin without an authenticator sets one up here before the area opens; the
 * verification raises the session, so the area opens right after.
 */
import type { ReactNode } from 'react'
import { MfaSettings } from '@/features/account/components/mfa-settings'
import { useAssuranceLevelQuery } from '@/features/account/api/assurance-level-query'

export function RequireSecondFactor({ children }: { children: ReactNode }) {
  const level = useAssuranceLevelQuery()
  // The check reads the stored session only; while it runs the area renders as usual (the database refuses
  // anything admin below aal2 anyway), so an admin with the code never waits for it.
  if (level.isError) return <p role="alert">Could not check your sign-in: {level.error.message}</p>
  if (level.isPending || level.data.current === 'aal2') return <>{children}</>
  return (
    <div className="mx-auto w-full max-w-xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-bold">Two-factor sign-in is required for admins</h1>
      {level.data.next === 'aal2' ? (
        <p>Sign out and sign in again with the code from your authenticator app to use the admin tools.</p>
      ) : (
        <>
          <p>
            Admin tools move money and change people&apos;s rights, so they need a second factor. Set up an
            authenticator app to continue.
          </p>
          <MfaSettings />
        </>
      )}
    </div>
  )
}
