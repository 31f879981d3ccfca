/**
 * A table that may be wider than a phone scrolls sideways; the scroll area is focusable and named so
 * keyboard users can scroll it too (axe: scrollable-region-focusable).
 */
import type { ReactNode } from 'react'

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container must take focus to be scrolled by keyboard
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      {children}
    </div>
  )
}
