/**
 * Where the one `<Toaster>` lives. It renders nothing until the first toast has loaded sonner (see toast.ts),
 * so pages that never toast never download it.
 */
import { useSyncExternalStore } from 'react'
import { loadedSonner, onSonnerLoaded, TOAST_DURATION_MS } from './toast'

/** Clear of the page's edge on a desk; above the phone's fixed bottom bars (about 72 px high) on a phone. */
export const TOAST_OFFSET = { bottom: 24, right: 24 }
export const TOAST_MOBILE_OFFSET = { bottom: 96, left: 12, right: 12 }

const noSonnerOnTheServer = () => null

export function ToastOutlet() {
  // An external store, not state set from an effect: sonner may finish loading between this render and the
  // subscription (a prerendered page hydrates in slices while the magic link's toast loads it), and React reads the
  // snapshot again when it subscribes, so that toast is not lost.
  const sonner = useSyncExternalStore(onSonnerLoaded, loadedSonner, noSonnerOnTheServer)
  if (!sonner) return null
  const { Toaster } = sonner
  // SPEC §9: one toast at a time; a toast stays 1,000,000 ms unless it sets its own duration. Such long-lived
  // toasts must never cover a control (issue 23): they sit in the bottom-right corner, clear of the header's
  // account menu and navigation, lifted above the phone's sticky bars (the newsletter list's "Subscribe to N"),
  // and every one has a close button.
  return (
    <Toaster
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      position="bottom-right"
      offset={TOAST_OFFSET}
      mobileOffset={TOAST_MOBILE_OFFSET}
    />
  )
}
