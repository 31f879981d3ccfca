/**
 * Sends the confirmation email again (SPEC §8). If the auth server's resend fails, a password-reset email
 * (which also proves ownership of the address) is tried, then the backup confirmation function, which
 * itself retries once.
 */
import { functionErrorMessage } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { emailRedirectUrl, passwordResetRedirectUrl } from '../site-url'

export type ResendResult =
  | { sent: true; via: 'resend' | 'password-reset' | 'backup' }
  | { sent: false; reason: string | null }

async function invokeBackup(email: string): Promise<string | null> {
  let lastError: string | null = null
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const { error } = await supabase.functions.invoke('send-backup-confirmation', { body: { email } })
    if (!error) return null
    // The function's own words (a rate limit, a bad address), not the client's "non-2xx status code".
    lastError = await functionErrorMessage(error, 'The email could not be sent')
  }
  return lastError
}

export async function resendVerificationEmail(email: string): Promise<ResendResult> {
  const resend = await supabase.auth.resend({ type: 'signup', email, options: { emailRedirectTo: emailRedirectUrl() } })
  if (!resend.error) return { sent: true, via: 'resend' }
  const reset = await supabase.auth.resetPasswordForEmail(email, { redirectTo: passwordResetRedirectUrl() })
  if (!reset.error) return { sent: true, via: 'password-reset' }
  const backupError = await invokeBackup(email)
  if (backupError === null) return { sent: true, via: 'backup' }
  return { sent: false, reason: backupError || resend.error.message || null }
}
