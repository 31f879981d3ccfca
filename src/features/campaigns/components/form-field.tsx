/** A label, the control, an optional hint and the field's error right beneath it (ids follow `id`). */
import type { ReactNode } from 'react'
import { Label } from '@/components/ui/label'

type FormFieldProps = { id: string; label: string; hint?: string; error?: string; children: ReactNode }

export function FormField({ id, label, hint, error, children }: FormFieldProps) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
