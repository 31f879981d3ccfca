/**
 * The signed-in user's avatar menu (SPEC §2): email, full name or 'No name set', Dashboard, Help, About,
 * and Log out; plus Account (PRODUCT "Everyone's account": name, email, password, two-factor, devices).
 */
// The signed-in menu's pieces may pass conflicting classes (src/lib/class-merge.ts): tailwind-merge arrives with them.
import '@/lib/class-merge'
import { useNavigate } from 'react-router-dom'
import type { User } from '@supabase/supabase-js'
import { HelpCircleIcon, InfoIcon, LayoutDashboardIcon, LogOutIcon, UserRoundIcon } from 'lucide-react'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { UserAvatar } from '@/components/pixel-avatar'
import { paths } from '@/config/paths'
import { useSignOut } from './use-sign-out'

export const displayNameOf = (user: User) => {
  const meta = user.user_metadata ?? {}
  const full = typeof meta.full_name === 'string' ? meta.full_name.trim() : ''
  const joined = [meta.first_name, meta.last_name].filter((part) => typeof part === 'string' && part.trim()).join(' ')
  return full || joined || 'No name set'
}

export const avatarUrlOf = (user: User) =>
  typeof user.user_metadata?.avatar_url === 'string' ? user.user_metadata.avatar_url : null

export function UserMenu({ user }: { user: User }) {
  const navigate = useNavigate()
  const { signOut } = useSignOut()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="rounded-full focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none"
        aria-label="Account menu"
      >
        <UserAvatar email={user.email} imageUrl={avatarUrlOf(user)} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate" data-testid="user-menu-name">
            {displayNameOf(user)}
          </span>
          <span className="truncate text-xs font-normal text-muted-foreground" data-testid="user-menu-email">
            {user.email}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(paths.dashboard)}>
          <LayoutDashboardIcon className="size-4" aria-hidden="true" /> Dashboard
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(paths.help)}>
          <HelpCircleIcon className="size-4" aria-hidden="true" /> Help
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(paths.about)}>
          <InfoIcon className="size-4" aria-hidden="true" /> About
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(paths.account)}>
          <UserRoundIcon className="size-4" aria-hidden="true" /> Account
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={signOut}>
          <LogOutIcon className="size-4" aria-hidden="true" /> Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
