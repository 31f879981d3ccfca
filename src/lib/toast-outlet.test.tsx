/**
 * The outlet must show a toast whose sonner finished loading between the outlet's render and its effect: a
 * prerendered page hydrates in slices, and the magic link's toast (src/app/earn-entry.ts) loads sonner beside it.
 * Its own file: sonner must not have loaded before this test (each file starts with fresh modules).
 */
import { startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { toast, loadedSonner } from './toast'
import { ToastOutlet } from './toast-outlet'

type ActGlobal = { IS_REACT_ACT_ENVIRONMENT?: boolean }
let actEnvironment: boolean | undefined
beforeEach(() => {
  // Outside act(), as in the browser: the commit and the passive effects run in separate tasks, and the promises
  // settled between them run in between too.
  actEnvironment = (globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT
  ;(globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = false
})
afterEach(() => {
  ;(globalThis as ActGlobal).IS_REACT_ACT_ENVIRONMENT = actEnvironment
})

/** Busy for longer than React's 5 ms slice. */
function occupyTheRenderer() {
  const until = performance.now() + 10
  while (performance.now() < until) {
    // Rendering work.
  }
}

/**
 * The rest of the page, still rendering when sonner's import settles: each part takes a slice of the renderer (so
 * React yields to the event loop after it) and is followed by another until sonner has loaded.
 */
function PageStillRendering() {
  occupyTheRenderer()
  return loadedSonner() ? null : <PageStillRendering />
}

it('shows a toast whose sonner loaded after the outlet rendered and before the outlet subscribed', async () => {
  expect(loadedSonner()).toBeNull()
  const root = createRoot(document.body.appendChild(document.createElement('div')))
  // sonner starts loading, and finishes while the rest of the page after the outlet is still rendering.
  toast.error('Source not approved yet')
  // A transition renders in slices, as hydrating a prerendered page does.
  startTransition(() =>
    root.render(
      <>
        <ToastOutlet />
        <PageStillRendering />
      </>,
    ),
  )
  await waitFor(() => expect(loadedSonner()).not.toBeNull())
  expect(await screen.findByText('Source not approved yet')).toBeInTheDocument()
  root.unmount()
})
