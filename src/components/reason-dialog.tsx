/** Asks for the reason of an admin decision (kept in the audit log) and confirms it. */
import { useId, useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'

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
  const { open, onOpenChange, title, description, confirmLabel, reasonRequired, destructive, pending, onConfirm, children } = props
  const [reason, setReason] = useState('')
  const [touched, setTouched] = useState(false)
  const id = useId()
  const missing = reasonRequired && reason.trim() === ''
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setReason('')
          setTouched(false)
        }
        onOpenChange(next)
      }}
    >
      <DialogContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            setTouched(true)
            if (!missing) onConfirm(reason.trim())
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-reason`}>Reason{reasonRequired ? '' : ' (optional)'}</Label>
            <Textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={1000}
              onChange={(event) => setReason(event.target.value)}
              aria-invalid={touched && missing}
              aria-describedby={touched && missing ? `${id}-error` : undefined}
            />
            {touched && missing && (
              <p id={`${id}-error`} className="text-sm text-red-700">
                Give a reason: the owner sees it and it is kept in the audit log.
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
