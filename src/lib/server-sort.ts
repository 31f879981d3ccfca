/** Turns a data table's sorting into the one `order` a paginated query sends; unknown columns fall back. */
import type { SortingState } from '@tanstack/react-table'

export function serverSort<C extends string>(sorting: SortingState, allowed: readonly C[], fallback: C) {
  const first = sorting[0]
  if (first && (allowed as readonly string[]).includes(first.id))
    return { column: first.id as C, ascending: !first.desc }
  return { column: fallback, ascending: false }
}
