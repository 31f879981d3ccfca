/**
 * Where the one `<Toaster>` lives. It renders nothing until the first toast has loaded sonner (see toast.ts),
 * so pages that never toast never download it.
 */
import { useEffect, useState } from 'react'
import { loadedSonner, onSonnerLoaded, TOAST_DURATION_MS, type SonnerModule } from './toast'

export function ToastOutlet() {
  const [sonner, setSonner] = useState<SonnerModule | null>(loadedSonner)
  useEffect(() => onSonnerLoaded(setSonner), [])
  if (!sonner) return null
  const { Toaster } = sonner
  // SPEC §9: one toast at a time; a toast stays 1,000,000 ms unless it sets its own duration. Such long-lived
  // toasts sit at the bottom so they never cover the header's account menu or navigation.
  return <Toaster visibleToasts={1} duration={TOAST_DURATION_MS} closeButton richColors position="bottom-right" />
}
