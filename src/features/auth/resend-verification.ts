/** Resending the confirmation email with the SPEC §8 toasts; used by the verification toast and the login page. */
import { toast } from '@/lib/toast'
import { resendVerificationEmail } from './api/verification-email-resend-request'

export async function resendVerificationWithToasts(email: string) {
  try {
    const result = await resendVerificationEmail(email)
    if (result.sent) {
      toast.success('Verification email sent', { description: `Check ${email} for the confirmation link.` })
    } else {
      toast.error('Failed to send verification email', { description: result.reason || 'Please try again later' })
    }
    return result.sent
  } catch (error) {
    console.error('Could not send verification email', error)
    toast.error('An error occurred', { description: 'Could not send verification email' })
    return false
  }
}
