/**
 * App-wide effects of being signed in, mounted once by the root layout:
 * - wallet initialisation (SPEC §6) once per signed-in user, with the SPEC §8 failure toast;
 * - completing a missing profile from the registration details (SPEC §3 keys);
 * - the one-time verification reminder for an unverified user (SPEC §4, 10 s, with a resend action).
 */
import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast, VERIFICATION_TOAST_DURATION_MS } from '@/lib/toast'
import { useSession } from '@/lib/session'
import { initialiseWallet } from '../api/wallet-initialise'
import { completeProfileFromRegistration } from '../api/profile-complete'
import { resendVerificationWithToasts } from '../resend-verification'

export const WALLET_FAILURE_TITLE = 'Wallet Initialization Failed'
export const WALLET_FAILURE_DESCRIPTION =
  'There was an issue setting up your wallet. Your funds may not be available immediately.'

/** Users already reminded in this page load: the reminder is one-time, not on every token refresh. */
const remindedUsers = new Set<string>()

export function showVerificationReminder(email: string) {
  toast('Please verify your email', {
    id: 'verify-email',
    description: `We sent a confirmation link to ${email}. Open it to finish setting up your account.`,
    duration: VERIFICATION_TOAST_DURATION_MS,
    action: { label: 'Resend', onClick: () => void resendVerificationWithToasts(email) },
  })
}

export function AuthEffects() {
  const { user, isLoading, userType, emailVerified, needsMfa } = useSession()
  const queryClient = useQueryClient()
  const initialisedFor = useRef<string | null>(null)
  const userId = user?.id ?? null
  const email = user?.email ?? null

  useEffect(() => {
    if (isLoading) return
    if (!userId) {
      initialisedFor.current = null
      return
    }
    if (needsMfa || initialisedFor.current === userId) return
    initialisedFor.current = userId
    void (async () => {
      await completeProfileFromRegistration(userId)
      const result = await initialiseWallet({ userId, isAdvertiser: userType === 'advertiser' })
      if (!result.ok) toast.error(WALLET_FAILURE_TITLE, { description: WALLET_FAILURE_DESCRIPTION })
      // The bonus just landed: balances already on screen are out of date.
      else if (result.bonusPaid) void queryClient.invalidateQueries()
    })()
  }, [isLoading, userId, userType, needsMfa, queryClient])

  useEffect(() => {
    if (isLoading || !userId || !email || emailVerified || remindedUsers.has(userId)) return
    remindedUsers.add(userId)
    showVerificationReminder(email)
  }, [isLoading, userId, email, emailVerified])

  return null
}
