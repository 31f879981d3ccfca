/** Marks a contact message handled or back to unhandled (admin_set_contact_message_handled). */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { contactKeys } from '../keys'

export type MessageHandledVariables = { messageId: string; handled: boolean }

export async function setMessageHandled({ messageId, handled }: MessageHandledVariables) {
  const { error } = await supabase.rpc('admin_set_contact_message_handled', {
    p_message_id: messageId,
    p_handled: handled,
  })
  if (error) throw error
}

export function useMessageHandledMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setMessageHandled,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: contactKeys.inbox })
      toast.success(vars.handled ? 'Marked handled' : 'Marked not handled')
    },
    onError: (error: Error) => toast.error(`Could not update the message: ${error.message}`),
  })
}
