/**
 * Everything every page needs: the query cache (SPEC §9 defaults), the session and the one toaster.
 * No tooltip provider here on purpose: Radix tooltips pull in the popover positioning engine (~15 KB gzip)
 * that public pages never use; an area that ever needs tooltips adds the primitive and wraps itself in its provider.
 */
import { useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/query-client'
import { SessionProvider } from '@/lib/session'
import { ToastOutlet } from '@/lib/toast-outlet'

/** `client`: a cache filled before the first render (the prerender's, or the data a prerendered page carries). */
export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient())
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>{children}</SessionProvider>
      <ToastOutlet />
    </QueryClientProvider>
  )
}
