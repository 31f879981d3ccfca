/**
 * Registration (SPEC §5, §7, §8): email + password + names + the chosen role, confirmed by email.
 * The result is a value, not a throw, so the form can treat "this email already has an account"
 * (errorType EMAIL_EXISTS) differently from other failures ('Failed to sign up: ' + reason).
 */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { MISSING_CREDENTIALS_MESSAGE, type RegisterValues } from '../auth-rules'
import { emailRedirectUrl } from '../site-url'
import { fullNameOf, rememberRegistration } from '../registration-storage'

export type SignUpResult =
  | { success: true; needsConfirmation: boolean; email: string }
  | { success: false; errorType: 'EMAIL_EXISTS' | 'MISSING_CREDENTIALS' | 'FAILED'; message: string }

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
  if (error) return mapSignUpError(error.message)
  // With confirmations on, the auth server answers a taken address with a user that has no identities
  // (so it does not reveal who has an account to strangers); the person registering is told plainly.
  if (data.user && data.user.identities?.length === 0) return mapSignUpError('Email already registered')
  return { success: true, needsConfirmation: !data.session, email }
}

export const useSignUpMutation = () => useMutation({ mutationFn: signUpWithEmail })
