/**
 * The frame of every page: a skip link, the header, the page, and the footer for signed-out visitors.
 * It also mounts the app-wide effects that belong to no single page: payment-return toasts, wallet
 * initialisation on sign-in and the email verification reminder.
 */
import { lazy, Suspense } from 'react'
import { Outlet, useLocation, useMatches } from 'react-router-dom'
import { PageSpinner } from '@/components/page-spinner'
import { SiteFooter } from '@/components/site-footer'
import { useSession } from '@/lib/session'
import { useRouteTitle } from '@/lib/page-title'
import { HydrateWhenVisible } from '@/lib/deferred-hydration'
import { titleOfMatches } from '../navigation'
import { SiteHeader } from './site-header'

// Its effects only ever act for a signed-in user: visitors never download it (nor the wallet and profile calls).
// The checkout's return toast loads only on the page the checkout sends the browser back to (?session_id= or
// ?payment=): every other visit, public pages first, leaves it out of its JavaScript.
const PaymentReturnToast = lazy(() =>
  import('./payment-return-toast').then((module) => ({ default: module.PaymentReturnToast })),
)

function PaymentReturn() {
  const { search } = useLocation()
  if (!/[?&](session_id|payment)=/.test(search)) return null
  return (
    <Suspense fallback={null}>
      <PaymentReturnToast />
    </Suspense>
  )
}

const AuthEffects = lazy(() =>
  import('@/features/auth/components/auth-effects').then((module) => ({ default: module.AuthEffects })),
)

export function RootLayout() {
  const { user } = useSession()
  useRouteTitle(titleOfMatches(useMatches()), useLocation().pathname)
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      {user ? null : (
        <HydrateWhenVisible id="site-footer">
          <SiteFooter />
        </HydrateWhenVisible>
      )}
      <PaymentReturn />
      {user ? (
        <Suspense fallback={null}>
          <AuthEffects />
        </Suspense>
      ) : null}
    </div>
  )
}
