/**
 * An admin approves or rejects a revision (`admin_decide_revision`): approving applies the proposed fields,
 * rejecting keeps the live ones; the note reaches the owner by email and the audit log keeps it. The database
 * refuses a rejection without a note again.
 *
 * A decision names the version of the revision the admin read. When the owner edited it since, the database
 * refuses (409, SQLSTATE PT409) and applies nothing: the queue is read again so the new version is on screen, and
 * the caller's `onEdited` tells the admin to review it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'
import { reviewKeys } from '../keys'

export type RevisionDecision = { id: string; version: number; decision: 'approved' | 'rejected'; note: string }

/** The owner edited the revision after the admin read it; nothing was applied. */
export class RevisionEditedError extends Error {
  override name = 'RevisionEditedError'
}

export async function decideRevision({ id, version, decision, note }: RevisionDecision) {
  const { error } = await supabase.rpc('admin_decide_revision', {
    p_revision_id: id,
    p_version: version,
    p_decision: decision,
    p_note: note,
  })
  if (error?.code === 'PT409') throw new RevisionEditedError(error.message)
  if (error) throw error
}

type Options = {
  onSuccess?: (vars: RevisionDecision) => void
  /** Called with the database's sentence once the queue shows the revision's current version. */
  onEdited?: (message: string, vars: RevisionDecision) => void
}

export function useRevisionDecisionMutation({ onSuccess, onEdited }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decideRevision,
    onSuccess: async (_data, vars) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      onSuccess?.(vars)
    },
    onError: async (error: Error, vars) => {
      if (error instanceof RevisionEditedError) {
        await queryClient.invalidateQueries({ queryKey: reviewKeys.revisions('pending') })
        if (onEdited) return onEdited(error.message, vars)
        return void toast.error(error.message)
      }
      toast.error(`Failed to save the decision: ${error.message}`)
    },
  })
}
