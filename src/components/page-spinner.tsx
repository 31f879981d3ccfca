import { Loader2Icon } from 'lucide-react'

/** Shown while a lazily loaded page or its first data arrives. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-2 text-muted-foreground">
      <Loader2Icon className="size-5 animate-spin" aria-hidden="true" />
      <span>{label}</span>
    </div>
  )
}
