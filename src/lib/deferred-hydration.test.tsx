/**
 * lib/deferred-hydration.tsx with React's real hydration in the test DOM (happy-dom): server HTML from react-dom/server, then
 * hydrateRoot over it. Every wait is for a condition (waitFor), never for time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, useEffect, useState } from 'react'
import { hydrateRoot, createRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { fireEvent, waitFor } from '@testing-library/react'
import { deferHydration, HydrateWhenVisible, resetDeferredHydration } from '@/lib/deferred-hydration'

/** An IntersectionObserver whose entries the test reports by hand: the test DOM lays nothing out, so it would never report one. */
class FakeObserver {
  static all: FakeObserver[] = []
  observed = new Set<Element>()
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this)
  }
  observe(element: Element) {
    this.observed.add(element)
  }
  unobserve(element: Element) {
    this.observed.delete(element)
  }
  disconnect() {
    this.observed.clear()
  }
  static show(element: Element) {
    for (const observer of FakeObserver.all.filter((o) => o.observed.has(element))) {
      observer.callback(
        [{ target: element, isIntersecting: true } as IntersectionObserverEntry],
        observer as unknown as IntersectionObserver,
      )
    }
  }
}

const hydrated = new Set<string>()

function Section({ name, label = 'Press' }: { name: string; label?: string }) {
  const [presses, setPresses] = useState(0)
  useEffect(() => {
    hydrated.add(name)
  }, [name])
  return (
    <section aria-label={name}>
      <button type="button" onClick={() => setPresses((n) => n + 1)}>
        {label} {name}
      </button>
      <output>{presses}</output>
    </section>
  )
}

function Page({ label }: { label?: string }) {
  return (
    <main>
      <Section name="top" />
      <HydrateWhenVisible id="below">
        <Section name="below" label={label} />
      </HydrateWhenVisible>
    </main>
  )
}

let container: HTMLDivElement
let root: Root | null = null
const recoverable = vi.fn()

beforeEach(() => {
  ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
  hydrated.clear()
  FakeObserver.all = []
  recoverable.mockClear()
  vi.stubGlobal('IntersectionObserver', FakeObserver)
  container = document.createElement('div')
  document.body.append(container)
})

afterEach(() => {
  act(() => root?.unmount())
  root = null
  container.remove()
  resetDeferredHydration()
  vi.unstubAllGlobals()
})

async function hydratePage() {
  container.innerHTML = renderToString(<Page />)
  const below = container.querySelector('section[aria-label="below"]')!
  deferHydration()
  await act(async () => {
    root = hydrateRoot(container, <Page />, { onRecoverableError: recoverable })
  })
  await waitFor(() => expect(hydrated.has('top')).toBe(true))
  return below
}

describe('HydrateWhenVisible', () => {
  it('keeps a section’s prerendered HTML unhydrated until it comes into view, then hydrates that same HTML', async () => {
    const below = await hydratePage()
    expect(hydrated.has('below')).toBe(false)
    expect(container.querySelector('section[aria-label="below"]')).toBe(below)

    await act(async () => FakeObserver.show(below))
    await waitFor(() => expect(hydrated.has('below')).toBe(true))
    // Hydrated, not rendered afresh: the same element, and no mismatch was recovered from.
    expect(container.querySelector('section[aria-label="below"]')).toBe(below)
    expect(recoverable).not.toHaveBeenCalled()
  })

  it('hydrates a section at the first click inside it, and that click reaches its handler', async () => {
    const below = await hydratePage()
    expect(hydrated.has('below')).toBe(false)
    const button = below.querySelector('button')!
    await act(async () => {
      fireEvent.pointerDown(button)
      fireEvent.click(button)
    })
    await waitFor(() => expect(below.querySelector('output')).toHaveTextContent('1'))
    expect(hydrated.has('below')).toBe(true)
    expect(recoverable).not.toHaveBeenCalled()
  })

  it('hydrates a waiting section when its props change instead of dropping its HTML', async () => {
    const below = await hydratePage()
    expect(hydrated.has('below')).toBe(false)
    await act(async () => root!.render(<Page label="Tap" />))
    await waitFor(() => expect(below.querySelector('button')).toHaveTextContent('Tap below'))
    expect(container.querySelector('section[aria-label="below"]')).toBe(below)
    expect(hydrated.has('below')).toBe(true)
  })

  it('renders at once when nothing is being hydrated (client navigation, a page over the shell)', async () => {
    deferHydration()
    root = createRoot(container)
    await act(async () => root!.render(<Page />))
    await waitFor(() => expect(hydrated.has('below')).toBe(true))
    expect(container.querySelector('section[aria-label="below"] button')).toHaveTextContent('Press below')
  })
})
