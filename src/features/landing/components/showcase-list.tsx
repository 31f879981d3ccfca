/** A small grid of things read from the database on the landing page, with loading and error states. */
import type { ReactNode } from 'react'
import { Skeleton } from '@/components/ui/skeleton'

type ShowcaseListProps<T> = {
  label: string
  items: T[] | undefined
  isPending: boolean
  error: Error | null
  empty: string
  render: (item: T) => ReactNode
  keyOf: (item: T) => string
}

export function ShowcaseList<T>({ label, items, isPending, error, empty, render, keyOf }: ShowcaseListProps<T>) {
  if (isPending) {
    return (
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-label={`Loading ${label}`}>
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
    )
  }
  if (error) return <p className="text-sm text-muted-foreground">Could not load {label} right now.</p>
  if (!items?.length) return <p className="text-sm text-muted-foreground">{empty}</p>
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={label}>
      {items.map((item) => (
        <li key={keyOf(item)}>{render(item)}</li>
      ))}
    </ul>
  )
}
