/**
 * The publisher's answer to a dispute (answer_dispute: the source's publisher, once, within 72 hours), with the form's
 * schema: the text and the evidence links (one per line) checked in @rules/dispute's words, as the database does.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { disputeAnswerProblem, evidenceLinksOf, evidenceLinksProblem } from '@rules/dispute'
import { ruleIssue } from '@/lib/rule-issue'
import { toast } from '@/lib/toast'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export const disputeAnswerSchema = z.object({
  answer: z.string().superRefine(ruleIssue(disputeAnswerProblem)),
  links: z.string().superRefine(ruleIssue((lines) => evidenceLinksProblem(evidenceLinksOf(lines)))),
})
export type DisputeAnswerValues = z.infer<typeof disputeAnswerSchema>

export type AnswerDisputeVariables = { disputeId: string; answer: string; links: string[] }

export async function answerDispute({ disputeId, answer, links }: AnswerDisputeVariables) {
  const { data, error } = await supabase.rpc('answer_dispute', {
    p_dispute_id: disputeId,
    p_text: answer.trim(),
    p_links: links,
  })
  if (error) throw error
  return data
}

export function useAnswerDisputeMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: answerDispute,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: disputeKeys.all })
      toast.success('Answer sent', {
        description: 'The admin reads both sides before deciding; you will get an email.',
      })
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Failed to send your answer: ${error.message}`),
  })
}
