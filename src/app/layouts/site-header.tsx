/**
 * The header of every page (SPEC §2): brand, the main navigation (hidden in signed-in areas), and either
 * Log in / Sign Up, the avatar menu, or on mobile the menu button.
 */
import { lazy, Suspense } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { Button } from '@/components/ui/button'
import { BrandLogo } from '@/components/brand-logo'
import { MainNav } from '@/components/main-nav'
import { isSignedInArea, paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { MobileMenuButton } from './mobile-menu-button'
import { useIsMobile } from './use-is-mobile'

// The avatar menu (and its popover machinery) is only downloaded once someone is signed in, and the
// slide-in menu (and its animation library) only when a phone's visitor opens it: public pages stay light.
const UserMenu = lazy(() => import('./user-menu').then((module) => ({ default: module.UserMenu })))

export function SiteHeader() {
  const { user, isLoading } = useSession()
  const { pathname } = useLocation()
  const isMobile = useIsMobile()
  const showNav = !isSignedInArea(pathname)

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLogo />
        {/* Prerendered HTML is drawn before the script knows the viewport: the desktop-only parts also hide by
            CSS under 768 px, so a phone never sees the wide header (and sideways scroll) before hydration. */}
        {showNav && !isMobile ? (
          <div className="max-md:hidden">
            <MainNav />
          </div>
        ) : null}
        <div className="flex min-w-10 items-center justify-end gap-2">
          {isMobile ? null : isLoading ? null : user ? (
            <Suspense fallback={<span className="size-9" />}>
              <UserMenu user={user} />
            </Suspense>
          ) : (
            <div className="flex items-center gap-2 max-md:hidden">
              <Button asChild variant="ghost">
                <Link to={paths.login}>Log in</Link>
              </Button>
              <Button asChild>
                <Link to={paths.register}>Sign Up</Link>
              </Button>
            </div>
          )}
          {/* Also in the prerendered HTML, shown by CSS under 768 px: a phone sees its menu button before any
              script runs, and hydration only drops the hidden desktop parts around it. */}
          <MobileMenuButton user={user} showNav={showNav} className={isMobile ? undefined : 'md:hidden'} />
        </div>
      </div>
    </header>
  )
}
