/** Change a user's type (admin_set_user_type: admins only, with a reason in the audit log). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export const USER_TYPES = ['advertiser', 'publisher', 'admin'] as const
export type UserTypeVariables = { userId: string; userType: (typeof USER_TYPES)[number]; reason: string }

/** The type field of the change-type dialog (its reason is ReasonDialog's, see review-decision-mutation.ts). */
export const userTypeSchema = z.object({ userType: z.enum(USER_TYPES, { error: 'Choose a user type' }) })
export type UserTypeValues = z.infer<typeof userTypeSchema>

export async function setUserType({ userId, userType, reason }: UserTypeVariables) {
  const { error } = await supabase.rpc('admin_set_user_type', {
    p_user_id: userId,
    p_user_type: userType,
    p_reason: reason,
  })
  if (error) throw error
}

type Options = { onSuccess?: (vars: UserTypeVariables) => void; onError?: (error: Error) => void }

export function useUserTypeMutation({ onSuccess, onError }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setUserType,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.(vars)
    },
    onError: (error: Error) => {
      if (onError) onError(error)
      else toast.error(`Failed to change the user type: ${error.message}`)
    },
  })
}
