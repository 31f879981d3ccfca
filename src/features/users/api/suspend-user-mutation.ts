/** Suspend or reinstate a user (admin_set_user_suspended: admins only, with a reason in the audit log). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type SuspendVariables = { userId: string; suspended: boolean; reason: string }

export async function setUserSuspended({ userId, suspended, reason }: SuspendVariables) {
  const { error } = await supabase.rpc('admin_set_user_suspended', {
    p_user_id: userId,
    p_suspended: suspended,
    p_reason: reason,
  })
  if (error) throw error
}

export function useSuspendUserMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setUserSuspended,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      toast.success(vars.suspended ? 'User suspended' : 'User reinstated')
      onSuccess?.()
    },
    onError: (error: Error, vars) =>
      toast.error(`Could not ${vars.suspended ? 'suspend' : 'reinstate'} the user: ${error.message}`),
  })
}
