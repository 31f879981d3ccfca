/**
 * An admin approves or rejects a revision (`admin_decide_revision`): approving applies the proposed fields,
 * rejecting keeps the live ones; the note reaches the owner by email and the audit log keeps it. The database
 * refuses a rejection without a note again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type RevisionDecision = { id: string; decision: 'approved' | 'rejected'; note: string }

export async function decideRevision({ id, decision, note }: RevisionDecision) {
  const { error } = await supabase.rpc('admin_decide_revision', {
    p_revision_id: id,
    p_decision: decision,
    p_note: note,
  })
  if (error) throw error
}

export function useRevisionDecisionMutation({ onSuccess }: { onSuccess?: (vars: RevisionDecision) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decideRevision,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.(vars)
    },
    onError: (error: Error) => toast.error(`Failed to save the decision: ${error.message}`),
  })
}
