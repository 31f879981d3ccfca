/**
 * Password sign-in. The result says what the screen must do next: go on, ask for the TOTP code
 * (the account has a verified factor), or offer to resend the confirmation email.
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { MISSING_CREDENTIALS_MESSAGE, type LoginValues } from '../auth-rules'

export type SignInResult =
  | { status: 'signed-in' }
  | { status: 'mfa-required'; factorId: string }
  | { status: 'email-not-confirmed'; email: string; message: string }
  | { status: 'error'; message: string }

export const EMAIL_NOT_CONFIRMED_MESSAGE =
  'Your email address is not confirmed yet. Open the link in the email we sent you, or send a new one.'

/** The verified TOTP factor still owed by a password-only (aal1) session, or null when none is owed. */
export async function pendingTotpFactor(): Promise<string | null> {
  const { data, error } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
  if (error || data.nextLevel !== 'aal2' || data.currentLevel === 'aal2') return null
  const factors = await supabase.auth.mfa.listFactors()
  return factors.data?.totp.find((factor) => factor.status === 'verified')?.id ?? null
}

export async function signInWithPassword({ email, password }: LoginValues): Promise<SignInResult> {
  const trimmed = email.trim()
  if (!trimmed || !password) return { status: 'error', message: MISSING_CREDENTIALS_MESSAGE }
  const { error } = await supabase.auth.signInWithPassword({ email: trimmed, password })
  if (error) {
    if (error.code === 'email_not_confirmed' || /email not confirmed/i.test(error.message)) {
      return { status: 'email-not-confirmed', email: trimmed, message: EMAIL_NOT_CONFIRMED_MESSAGE }
    }
    return { status: 'error', message: error.message }
  }
  const factorId = await pendingTotpFactor()
  return factorId ? { status: 'mfa-required', factorId } : { status: 'signed-in' }
}

export const useSignInMutation = () => useMutation({ mutationFn: signInWithPassword })
