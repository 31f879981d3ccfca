/** The main navigation of SPEC §2: the same five items on desktop and in the mobile menu. */
import { NavLink } from 'react-router-dom'
import { paths } from '@/config/paths'
import { cn } from '@/lib/utils'

export const mainNavItems = [
  { label: 'Home', to: paths.home },
  { label: 'Newsletters', to: paths.newsletters },
  { label: 'Audiences', to: paths.audiences },
  { label: 'Help', to: paths.help },
  { label: 'About', to: paths.about },
] as const

type MainNavProps = { orientation?: 'horizontal' | 'vertical'; onNavigate?: () => void }

export function MainNav({ orientation = 'horizontal', onNavigate }: MainNavProps) {
  const vertical = orientation === 'vertical'
  return (
    <nav aria-label="Main">
      <ul className={cn('flex', vertical ? 'flex-col gap-1' : 'items-center gap-1')}>
        {mainNavItems.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.to === paths.home}
              onClick={onNavigate}
              className={({ isActive }) =>
                cn(
                  'block rounded-md px-3 py-2 font-medium transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  vertical ? 'text-base' : 'text-sm',
                  isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
