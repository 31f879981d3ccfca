/**
 * The publisher answers a dispute once, within its 72 hours: their side in words and, as evidence, links to where the
 * readers came from (the post, the video, the page), one per line. Checked here in @rules/dispute's words; the
 * database (answer_dispute) checks it all again and refuses after the deadline.
 */
import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { FormField } from '@/components/form-field'
import { MAX_DISPUTE_ANSWER_LENGTH, MAX_EVIDENCE_LINKS, evidenceLinksOf } from '@rules/dispute'
import { formatDateTime } from '@/lib/format'
import { disputeAnswerSchema, useAnswerDisputeMutation, type DisputeAnswerValues } from '../api/answer-dispute-mutation'

export function DisputeAnswerForm({ disputeId, until }: { disputeId: string; until: string }) {
  const id = useId()
  const form = useForm<DisputeAnswerValues>({
    resolver: zodResolver(disputeAnswerSchema),
    defaultValues: { answer: '', links: '' },
  })
  const answer = useAnswerDisputeMutation()
  const { errors } = form.formState
  const onSubmit = form.handleSubmit((values) =>
    answer.mutate({ disputeId, answer: values.answer, links: evidenceLinksOf(values.links) }),
  )
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => void onSubmit(e)}
      data-testid="dispute-answer-form"
    >
      <p className="text-sm">
        You can answer once, until <strong>{formatDateTime(until)}</strong>. The admin reads your answer beside the
        advertiser’s reason before deciding.
      </p>
      <FormField
        id={`${id}-answer`}
        label="Your answer"
        error={errors.answer?.message}
        hint="Where these readers came from and why they are genuine: at least 20 characters."
      >
        <Textarea rows={6} maxLength={MAX_DISPUTE_ANSWER_LENGTH} {...form.register('answer')} />
      </FormField>
      <FormField
        id={`${id}-links`}
        label="Evidence links (optional)"
        error={errors.links?.message}
        hint={`Up to ${MAX_EVIDENCE_LINKS} https:// links, one per line: the post, video or page you shared the link in, your audience statistics.`}
      >
        <Textarea rows={3} placeholder="https://" {...form.register('links')} />
      </FormField>
      <Button type="submit" className="w-full sm:w-fit" disabled={answer.isPending} data-testid="send-dispute-answer">
        {answer.isPending ? 'Sending…' : 'Send answer'}
      </Button>
    </form>
  )
}
