/**
 * Hydrating a prerendered page section by section. The HTML already shows the whole page; what the first
 * interaction does not need — sections below the fold, the footer — keeps its HTML and is hydrated only when it
 * comes near the viewport or someone points at, touches, focuses or types into it. Everything else hydrates as
 * before, so the page's long start-up task is split and shortened (Lighthouse's total blocking time).
 *
 * How: `<HydrateWhenVisible id>` is a Suspense boundary around its children. While the app hydrates
 * (`deferHydration()` was called, see app/boot.tsx), the first render of a boundary whose prerendered HTML is in
 * the page suspends on a promise: React then leaves that HTML in place (a dehydrated boundary) and hydrates it
 * when the promise resolves. A capturing listener on the window releases a section synchronously, before React's
 * own listener sees the event, so React hydrates it at once and the event reaches the hydrated handlers.
 * Anything that renders a boundary again before its release (new props, a context change) renders it for real:
 * React then hydrates it right away instead of replacing its HTML with the (empty) fallback.
 *
 * Everywhere else — client navigation (no prerendered HTML of the boundary in the page), a page rendered over
 * the shell, the prerender itself, tests — the boundary renders its children at once.
 */
import { Suspense, use, type ReactNode } from 'react'

const ATTRIBUTE = 'data-hydrate-gate'
const INTERACTIONS = ['pointerdown', 'mousedown', 'touchstart', 'focusin', 'keydown', 'click', 'input'] as const

type Gate = { promise: Promise<void>; release: () => void; released: boolean; waited: boolean; attempts: number }

let active = false
const gates = new Map<string, Gate>()
let observer: IntersectionObserver | null = null

function gateFor(id: string): Gate {
  let gate = gates.get(id)
  if (!gate) {
    let resolve!: () => void
    const promise = new Promise<void>((done) => (resolve = done))
    const created: Gate = { promise, released: false, waited: false, attempts: 0, release: () => undefined }
    created.release = () => {
      if (created.released) return
      created.released = true
      // Marked as React marks a settled promise, so `use` reads it in this very render (a click hydrating
      // its section synchronously) instead of suspending once more.
      Object.assign(promise, { status: 'fulfilled', value: undefined })
      resolve()
    }
    gates.set(id, created)
    gate = created
  }
  return gate
}

/** Hydrates the section `id` now (it comes into view, or someone interacts with it). */
export function releaseHydration(id: string) {
  gateFor(id).release()
}

// Ids are the app's own words (`landing-showcase`), never user input.
const elementOf = (id: string) => document.querySelector<HTMLElement>(`[${ATTRIBUTE}="${id}"]`)

function onInteraction(event: Event) {
  const target = event.target instanceof Element ? event.target : null
  const section = target?.closest<HTMLElement>(`[${ATTRIBUTE}]`)
  const id = section?.getAttribute(ATTRIBUTE)
  if (id) releaseHydration(id)
}

/**
 * Called before `hydrateRoot`: the boundaries of this first render may wait for view or interaction.
 * `margin`: how far below the viewport a section starts hydrating.
 */
export function deferHydration({ margin = '200px' }: { margin?: string } = {}) {
  if (active || typeof window === 'undefined') return
  active = true
  for (const type of INTERACTIONS) window.addEventListener(type, onInteraction, { capture: true, passive: true })
  if (typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue
          observer?.unobserve(entry.target)
          const id = entry.target.closest(`[${ATTRIBUTE}]`)?.getAttribute(ATTRIBUTE)
          if (id) releaseHydration(id)
        }
      },
      { rootMargin: `0px 0px ${margin} 0px` },
    )
  }
}

/** The gate this render of boundary `id` reads (and waits on while it is pending), or none. */
function gateOf(id: string): Gate | null {
  if (!active || typeof document === 'undefined') return null
  const gate = gateFor(id)
  gate.attempts += 1
  if (gate.waited) {
    // Rendered again before its release (new props, a context change): hydrate it now rather than let React
    // replace its HTML with the fallback.
    if (gate.attempts > 1) gate.release()
    return gate
  }
  // Only the boundary's first render waits, and only while its prerendered HTML is in the page (a page reached
  // by client navigation has none yet): React keeps that HTML meanwhile.
  if (gate.released || gate.attempts > 1) return null
  const element = elementOf(id)
  if (!element || !observer) return null
  // `display: contents` has no box of its own: watch what it contains.
  for (const box of element.children.length ? Array.from(element.children) : [element]) observer.observe(box)
  gate.waited = true
  return gate
}

function Gate({ id, children }: { id: string; children: ReactNode }) {
  const gate = gateOf(id)
  // A pending promise suspends this render (React keeps the HTML); once released it reads at once.
  if (gate) use(gate.promise)
  return (
    <div {...{ [ATTRIBUTE]: id }} className="contents">
      {children}
    </div>
  )
}

/** A section hydrated when it comes into view or is interacted with (see above). `id`: unique in the page. */
export function HydrateWhenVisible({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Gate id={id}>{children}</Gate>
    </Suspense>
  )
}

/** For tests: forgets every boundary and stops deferring. */
export function resetDeferredHydration() {
  active = false
  gates.clear()
  observer?.disconnect()
  observer = null
  for (const type of INTERACTIONS) window.removeEventListener(type, onInteraction, { capture: true })
}
