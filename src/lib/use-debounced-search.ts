/**
 * A search box whose committed value lives elsewhere (the URL): typing updates the box at once and commits
 * after a pause; a change of the committed value from outside (the back button) replaces what is typed.
 */
import { useEffect, useState } from 'react'

export const SEARCH_DEBOUNCE_MS = 300

export function useDebouncedSearch(committed: string, commit: (value: string) => void, delayMs = SEARCH_DEBOUNCE_MS) {
  const [search, setSearch] = useState(committed)
  const [seen, setSeen] = useState(committed)
  if (seen !== committed) {
    setSeen(committed)
    setSearch(committed)
  }
  useEffect(() => {
    if (search === committed) return
    const timer = setTimeout(() => commit(search), delayMs)
    return () => clearTimeout(timer)
  }, [search, committed, commit, delayMs])
  return [search, setSearch] as const
}
