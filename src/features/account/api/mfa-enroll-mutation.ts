/**
 * Starts TOTP enrolment: the auth server returns the secret and its otpauth URI; the QR code is drawn here from
 * the URI (lib/totp-qr.ts), so no third-party QR service ever sees the secret. Half-finished enrolments are
 * removed first, because the server refuses a second unverified factor with the same name.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from '../keys'
import { totpQrDataUrl } from '../lib/totp-qr'

export async function enrollTotp() {
  const listed = await supabase.auth.mfa.listFactors()
  for (const factor of listed.data?.all ?? []) {
    if (factor.factor_type === 'totp' && factor.status === 'unverified')
      await supabase.auth.mfa.unenroll({ factorId: factor.id })
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app' })
  if (error) throw error
  return { factorId: data.id, qrCode: await totpQrDataUrl(data.totp.uri), secret: data.totp.secret, uri: data.totp.uri }
}

export function useMfaEnrollMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: enrollTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.mfaFactors() }),
    onError: (error) => console.error('Failed to start two-factor setup', error),
  })
}
