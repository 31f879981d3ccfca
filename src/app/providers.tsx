/**
 * Everything every page needs: the query cache (SPEC §9 defaults), the session and the one toaster.
 * No tooltip provider here on purpose: Radix tooltips pull in the popover positioning engine (~15 KB gzip)
 * that public pages never use; an area that shows tooltips wraps itself in `<TooltipProvider>`.
 */
import { useState, type ReactNode } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { Toaster } from 'sonner'
import { createQueryClient } from '@/lib/query-client'
import { TOAST_DURATION_MS } from '@/lib/toast'
import { SessionProvider } from '@/lib/session'

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>{children}</SessionProvider>
      {/* SPEC §9: one toast at a time; a toast stays 1,000,000 ms unless it sets its own duration. Such long-lived
          toasts sit at the bottom so they never cover the header's account menu or navigation. */}
      <Toaster visibleToasts={1} duration={TOAST_DURATION_MS} closeButton richColors position="bottom-right" />
    </QueryClientProvider>
  )
}
