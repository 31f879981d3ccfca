/**
 * The mobile menu's contents (SPEC §2): the main navigation (in a dashboard: its sections and Account instead),
 * then Contact, and at the bottom Log in and Sign Up for visitors, or the user block, Account and Log out. It closes
 * whenever the route changes.
 */
// The menu's pieces pass conflicting classes (src/lib/class-merge.ts): tailwind-merge arrives with them.
import '@/lib/class-merge'
import { useState, type ReactNode } from 'react'
import { Link, useLocation } from 'react-router-dom'
import type { User } from '@supabase/supabase-js'
import { Button } from '@/components/ui/button'
import { MainNav } from '@/components/main-nav'
import { MobileMenu } from '@/components/mobile-menu'
import { UserAvatar } from '@/components/pixel-avatar'
import { paths } from '@/config/paths'
import { avatarUrlOf, displayNameOf } from './user-menu'
import { useSignOut } from './use-sign-out'
import { DashboardMenuSections } from './dashboard-menu-sections'

type MobileNavigationProps = {
  user: User | null
  showNav: boolean
  /** The menu button (mobile-menu-button.tsx's, so this chunk shares nothing with the header's). */
  trigger: ReactNode
  /** Loaded by a tap on the header's light menu button: open at once. */
  initiallyOpen?: boolean
}

export function MobileNavigation({ user, showNav, trigger, initiallyOpen = false }: MobileNavigationProps) {
  const location = useLocation()
  const here = location.pathname + location.search
  // The menu is open for the route it was opened on: any navigation closes it, without an effect.
  const [openOn, setOpenOn] = useState<string | null>(initiallyOpen ? here : null)
  const open = openOn === here
  const setOpen = (next: boolean) => setOpenOn(next ? here : null)
  const { signOut } = useSignOut()

  const footer = user ? (
    <div className="flex flex-col gap-3" data-testid="mobile-user-block">
      <div className="flex items-center gap-3">
        <UserAvatar email={user.email} imageUrl={avatarUrlOf(user)} />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{displayNameOf(user)}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Button asChild variant="outline">
          <Link to={paths.dashboard}>Dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.account}>Account</Link>
        </Button>
      </div>
      <Button variant="destructive" onClick={signOut}>
        Log out
      </Button>
    </div>
  ) : (
    <div className="flex flex-col gap-2">
      <Button asChild variant="outline">
        <Link to={paths.login}>Log in</Link>
      </Button>
      <Button asChild>
        <Link to={paths.register}>Sign Up</Link>
      </Button>
    </div>
  )

  return (
    <MobileMenu open={open} onOpenChange={setOpen} title="Menu" footer={footer} trigger={trigger}>
      {showNav ? (
        <>
          <MainNav orientation="vertical" onNavigate={() => setOpen(false)} />
          {/* The desktop footer's Contact, which a phone reaches only from here. */}
          <Link
            to={paths.contact}
            onClick={() => setOpen(false)}
            className="mt-1 block rounded-md px-3 py-2 text-base font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            Contact
          </Link>
        </>
      ) : null}
      {user && !showNav ? <DashboardMenuSections /> : null}
    </MobileMenu>
  )
}
