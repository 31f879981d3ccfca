/** Asks for the reason of an admin decision (kept in the audit log) and confirms it. */
import { useId, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { z } from 'zod'

/**
 * The reason of an admin decision (reviews, type changes). Required to reject, ban or change a type, optional to
 * approve; submitted trimmed. The admin functions refuse a missing one again. It sits with this shared dialog
 * rather than beside one mutation because the review and users features both send it.
 */
const decisionReasonSchema = (required: boolean) =>
  z.object({
    reason: z
      .string()
      .transform((value) => value.trim())
      .refine((value) => !required || value !== '', {
        error: 'Give a reason: the owner sees it and it is kept in the audit log.',
      }),
  })
type DecisionReasonInput = z.input<ReturnType<typeof decisionReasonSchema>>
type DecisionReasonValues = z.output<ReturnType<typeof decisionReasonSchema>>

type ReasonDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  confirmLabel: string
  reasonRequired: boolean
  destructive?: boolean
  pending: boolean
  onConfirm: (reason: string) => void
  children?: ReactNode
}

export function ReasonDialog(props: ReasonDialogProps) {
  const {
    open,
    onOpenChange,
    title,
    description,
    confirmLabel,
    reasonRequired,
    destructive,
    pending,
    onConfirm,
    children,
  } = props
  const form = useForm<DecisionReasonInput, unknown, DecisionReasonValues>({
    resolver: zodResolver(decisionReasonSchema(reasonRequired)),
    defaultValues: { reason: '' },
  })
  const id = useId()
  const error = form.formState.errors.reason?.message
  const onSubmit = form.handleSubmit(({ reason }) => onConfirm(reason))
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset({ reason: '' })
        onOpenChange(next)
      }}
    >
      <DialogContent>
        <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-reason`}>Reason{reasonRequired ? '' : ' (optional)'}</Label>
            <Textarea
              id={`${id}-reason`}
              maxLength={1000}
              {...form.register('reason')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            {error && (
              <p id={`${id}-error`} className="text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={pending}>
              {pending ? 'Saving…' : confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
