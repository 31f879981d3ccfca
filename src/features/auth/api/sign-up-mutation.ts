/**
 * Registration (SPEC §5, §7, §8): email + password + names + the chosen role, confirmed by email.
 * The result is a value, not a throw, so the form can treat "this email already has an account"
 * (errorType EMAIL_EXISTS, only where the server says so: with confirmations off), a weak password (said
 * at the password field, in the shared rules' words) and other failures ('Failed to sign up: ' + reason)
 * differently. With confirmations on, the server answers a taken address exactly as a new one (issue 37),
 * so nothing here, or on screen, tells a stranger who has an account.
 */
import { useMutation } from '@tanstack/react-query'
import { leakedPasswordProblem, weakPasswordText } from '@/lib/password-check'
import { supabase } from '@/lib/supabase'
import { MISSING_CREDENTIALS_MESSAGE, type RegisterValues } from '../auth-rules'
import { emailRedirectUrl } from '../site-url'
import { fullNameOf, rememberRegistration } from '../registration-storage'

export type SignUpResult =
  | { success: true; needsConfirmation: boolean; email: string }
  | { success: false; errorType: 'EMAIL_EXISTS' | 'MISSING_CREDENTIALS' | 'WEAK_PASSWORD' | 'FAILED'; message: string }

/** The form follows it with links to log in or reset the password, so it does not say so itself. */
export const EMAIL_EXISTS_MESSAGE = 'An account with this email already exists.'

/** SPEC §8: a message containing 'Email already' or 'already registered' means the email is taken. */
export function mapSignUpError(reason: string): Extract<SignUpResult, { success: false }> {
  if (/Email already|already registered/i.test(reason)) {
    return { success: false, errorType: 'EMAIL_EXISTS', message: EMAIL_EXISTS_MESSAGE }
  }
  return { success: false, errorType: 'FAILED', message: `Failed to sign up: ${reason}` }
}

export async function signUpWithEmail(values: RegisterValues): Promise<SignUpResult> {
  const email = values.email.trim()
  if (!email || !values.password) {
    return { success: false, errorType: 'MISSING_CREDENTIALS', message: MISSING_CREDENTIALS_MESSAGE }
  }
  const leaked = await leakedPasswordProblem(values.password)
  if (leaked) return { success: false, errorType: 'WEAK_PASSWORD', message: leaked }
  rememberRegistration(values)
  const { data, error } = await supabase.auth.signUp({
    email,
    password: values.password,
    options: {
      emailRedirectTo: emailRedirectUrl(),
      data: {
        user_type: values.userType,
        full_name: fullNameOf(values.firstName, values.lastName),
        first_name: values.firstName.trim(),
        last_name: values.lastName.trim(),
      },
    },
  })
  if (error) {
    const weak = weakPasswordText(error)
    return weak ? { success: false, errorType: 'WEAK_PASSWORD', message: weak } : mapSignUpError(error.message)
  }
  // Hosted GoTrue answers a taken address with a user without identities; that is not read here either: the
  // screen says the same to everyone, and how to get in when the address already has an account.
  return { success: true, needsConfirmation: !data.session, email }
}

export const useSignUpMutation = () => useMutation({ mutationFn: signUpWithEmail })
