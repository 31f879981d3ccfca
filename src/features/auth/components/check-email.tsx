/** "We sent you an email" after sign-up or a password reset request, with a way to ask again. */
import { useState, type ReactNode } from 'react'
import { MailCheckIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { FormMessage } from './auth-card'

type CheckEmailProps = { email: string; children: string; note?: ReactNode; onResend?: () => Promise<unknown> }

export function CheckEmail({ email, children, note, onResend }: CheckEmailProps) {
  const [sending, setSending] = useState(false)
  return (
    <div className="flex flex-col gap-4" data-testid="check-email">
      <FormMessage tone="success">
        <span className="flex items-start gap-2">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            {children} We sent it to <strong>{email}</strong>.
          </span>
        </span>
      </FormMessage>
      <p className="text-sm text-muted-foreground">Nothing after a few minutes? Check your spam folder.</p>
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
      {onResend ? (
        <Button
          variant="outline"
          disabled={sending}
          onClick={async () => {
            setSending(true)
            await onResend().finally(() => setSending(false))
          }}
        >
          Send the email again
        </Button>
      ) : null}
    </div>
  )
}
