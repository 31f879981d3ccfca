/**
 * Saves the signed-in user's name in both places it is read: the profile row (what admins and the database see)
 * and the auth metadata (what the avatar menu shows without another request).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { accountKeys } from '../keys'

export type ProfileNameVariables = { userId: string; firstName: string; lastName: string }

export async function saveProfileName({ userId, firstName, lastName }: ProfileNameVariables) {
  const first = firstName.trim()
  const last = lastName.trim()
  const fullName = [first, last].filter(Boolean).join(' ')
  const { error } = await supabase
    .from('profiles')
    .update({ first_name: first || null, last_name: last || null, full_name: fullName || null })
    .eq('id', userId)
  if (error) throw error
  const updated = await supabase.auth.updateUser({ data: { first_name: first, last_name: last, full_name: fullName } })
  if (updated.error) throw updated.error
}

export function useProfileNameMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveProfileName,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountKeys.all })
      onSuccess?.()
    },
    onError: (error) => toast.error(`Failed to save your name: ${error.message}`),
  })
}
