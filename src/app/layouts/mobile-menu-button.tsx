/**
 * The header's menu button on phones. The menu itself (Radix Dialog and framer-motion's spring, ~34 KB gzip)
 * loads on the first tap, not while the page starts: the button is plain HTML in the prerendered page and
 * hydrates with nothing to download. Until then it is disabled (a tap on it could not open anything yet; it keeps
 * its look). A pointer or focus on the button starts the download early.
 */
import { lazy, Suspense, useState, useSyncExternalStore, type ComponentProps } from 'react'
import { useLocation } from 'react-router-dom'
import type { User } from '@supabase/supabase-js'
import { MenuIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

const loadMobileNavigation = () => import('./mobile-navigation')
const MobileNavigation = lazy(() => loadMobileNavigation().then((module) => ({ default: module.MobileNavigation })))

/** The button itself: the light one below and the loaded menu's trigger look and read the same. */
function MenuButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" aria-label="Open menu" {...props}>
      <MenuIcon className="size-6" aria-hidden="true" />
    </Button>
  )
}

const noSubscription = () => () => undefined
const isClient = () => true
const isServer = () => false

export function MobileMenuButton({
  user,
  showNav,
  className,
}: {
  user: User | null
  showNav: boolean
  className?: string
}) {
  // The route the menu was asked for on: on a cold first visit the menu's code may still be downloading when the
  // visitor taps something else and the route changes; it then opens closed (SPEC: the menu closes on route change).
  const location = useLocation()
  const here = location.pathname + location.search
  const [wantedOn, setWantedOn] = useState<string | null>(null)
  const wanted = wantedOn !== null
  // False in the prerendered HTML and while it hydrates (the server's answer); true once the button answers taps.
  const live = useSyncExternalStore(noSubscription, isClient, isServer)
  const preload = () => void loadMobileNavigation().catch(() => undefined)
  if (!wanted) {
    return (
      <MenuButton
        // Important, so it wins over the button's own disabled:opacity-50 with or without tailwind-merge (lib/utils.ts).
        className={cn(className, 'disabled:opacity-100!')}
        disabled={!live}
        onPointerDown={preload}
        onFocus={preload}
        onClick={() => setWantedOn(here)}
      />
    )
  }
  return (
    <Suspense fallback={<MenuButton className={className} aria-busy="true" />}>
      <MobileNavigation
        user={user}
        showNav={showNav}
        initiallyOpen={wantedOn === here}
        trigger={<MenuButton className={className} />}
      />
    </Suspense>
  )
}
