/** "Forgot password": emails a link that lands on /reset-password with a recovery session in the hash. */
import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { passwordResetRedirectUrl } from '../site-url'

export async function requestPasswordReset(email: string) {
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), { redirectTo: passwordResetRedirectUrl() })
  if (error) throw error
}

export const usePasswordResetRequestMutation = () => useMutation({ mutationFn: requestPasswordReset })
