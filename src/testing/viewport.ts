/**
 * A viewport of a given width, as `matchMedia` reports it: `(min-width: Npx)` and `(max-width: Npx)` clauses are
 * judged against the width; a query with none of them (reduced motion, colour scheme) does not match. Undo with
 * `vi.unstubAllGlobals()`.
 */
import { vi } from 'vitest'

export const PHONE_WIDTH_PX = 390

export function matchesWidth(query: string, width: number): boolean {
  const clauses = [...query.matchAll(/\((min|max)-width:\s*(\d+)px\)/g)]
  return (
    clauses.length > 0 &&
    clauses.every(([, bound, px]) => (bound === 'min' ? width >= Number(px) : width <= Number(px)))
  )
}

export function stubViewportWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matchesWidth(query, width),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    onchange: null,
    dispatchEvent: () => false,
  }))
}

/** A 390 px phone. */
export const stubPhoneViewport = () => stubViewportWidth(PHONE_WIDTH_PX)
