/**
 * Password sign-in. The result says what the screen must do next: go on, ask for the TOTP code
 * (the account has a verified factor), offer to resend the confirmation email, or say the account is suspended.
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { MISSING_CREDENTIALS_MESSAGE, type LoginValues } from '../auth-rules'

export type SignInResult =
  | { status: 'signed-in' }
  | { status: 'mfa-required'; factorId: string }
  | { status: 'email-not-confirmed'; email: string; message: string }
  | { status: 'suspended'; email: string; message: string }
  | { status: 'error'; message: string }

/**
 * A suspended account (the auth server's `user_banned`, GoTrue's "User is banned"), in words a person can act on. The
 * reason is not here: nothing answered before sign-in may tell a stranger about an address's account, so it went to
 * the account's inbox when the admin suspended it (the `account_suspended` email); the login form adds the way to
 * appeal, the contact form.
 */
export const SUSPENDED_MESSAGE =
  'This account is suspended, so it cannot sign in. We emailed you the reason when it was suspended. If you think it is a mistake, you can appeal through the contact form.'

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
    if (error.code === 'user_banned' || /user is banned/i.test(error.message)) {
      return { status: 'suspended', email: trimmed, message: SUSPENDED_MESSAGE }
    }
    return { status: 'error', message: error.message }
  }
  const factorId = await pendingTotpFactor()
  return factorId ? { status: 'mfa-required', factorId } : { status: 'signed-in' }
}

export const useSignInMutation = () => useMutation({ mutationFn: signInWithPassword })
