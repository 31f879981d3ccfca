/** The frame of the account screens: a centred card with a heading, a short line and the form. */
import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'

type AuthCardProps = { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }

export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent className="flex flex-col gap-4">{children}</CardContent>
      </Card>
      {footer ? <div className="text-center text-sm text-muted-foreground">{footer}</div> : null}
    </div>
  )
}

/** A highlighted message inside a form: an error the user must read, or a confirmation. */
export function FormMessage({
  tone,
  children,
  testId,
}: {
  tone: 'error' | 'success' | 'info'
  children: ReactNode
  testId?: string
}) {
  const styles = {
    error: 'border-destructive/40 bg-destructive/5 text-destructive',
    success: 'border-primary/40 bg-accent text-accent-foreground',
    info: 'border-border bg-muted text-foreground',
  }[tone]
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-md border px-3 py-2 text-sm ${styles}`}
    >
      {children}
    </div>
  )
}
