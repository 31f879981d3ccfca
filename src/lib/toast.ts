/**
 * The app's toasts. Same calls as sonner's `toast` (`toast(…)`, `toast.success/error/info/warning`, with
 * `description`, `duration`, `action`, …), but sonner (~9 KB gzip) is downloaded on the first toast instead of
 * on every page; `<ToastOutlet>` mounts the one `<Toaster>` at that moment. Sonner keeps toasts raised before
 * its Toaster subscribed and shows them, so nothing is lost while it loads. Toasts raised while it loads keep
 * their order (they wait on the same import).
 */
import type { ExternalToast, toast as sonnerToast } from 'sonner'

/** Toast durations from SPEC §9. */
export const TOAST_DURATION_MS = 1_000_000
export const VERIFICATION_TOAST_DURATION_MS = 10_000

export type SonnerModule = typeof import('sonner')
type Message = Parameters<typeof sonnerToast>[0]

let loaded: SonnerModule | null = null
let loading: Promise<SonnerModule> | null = null
const listeners = new Set<(sonner: SonnerModule) => void>()

/** Sonner once it has loaded, for the outlet's first render. */
export const loadedSonner = () => loaded

/** Calls `listener` when sonner has loaded (the first toast); returns the unsubscribe. */
export function onSonnerLoaded(listener: (sonner: SonnerModule) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function loadSonner(): Promise<SonnerModule> {
  loading ??= import('sonner').then(
    (sonner) => {
      loaded = sonner
      for (const listener of listeners) listener(sonner)
      return sonner
    },
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

function show(raise: (toast: SonnerModule['toast']) => unknown) {
  if (loaded) {
    raise(loaded.toast)
    return
  }
  loadSonner().then(
    (sonner) => raise(sonner.toast),
    (error: unknown) => console.error('Could not show a notification', error),
  )
}

type Raise = (message: Message, data?: ExternalToast) => void

const raiseWith =
  (kind: 'success' | 'error' | 'info' | 'warning'): Raise =>
  (message, data) =>
    show((toast) => toast[kind](message, data))

export const toast: Raise &
  Record<'success' | 'error' | 'info' | 'warning', Raise> & {
    dismiss: (id?: string | number) => void
  } = Object.assign((message: Message, data?: ExternalToast) => show((raise) => raise(message, data)), {
  success: raiseWith('success'),
  error: raiseWith('error'),
  info: raiseWith('info'),
  warning: raiseWith('warning'),
  dismiss: (id?: string | number) => {
    // Nothing to dismiss before sonner has loaded.
    if (loaded) loaded.toast.dismiss(id)
  },
})
