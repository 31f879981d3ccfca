/**
 * One layout for every role's dashboard (STYLE "Dashboards"): the same width and spacing, a sidebar of sections
 * on a desk, and on a phone one button naming the current section that opens the list, so no tab row wraps
 * or scrolls sideways. Each page brings its own header (components/page-header) and content.
 */
import type { ReactNode } from 'react'
import { NavLink, useLocation, useNavigate } from 'react-router-dom'
import { ChevronDownIcon, UserRoundIcon } from 'lucide-react'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { Button } from '@/components/ui/button'
import { useMediaQuery } from '@/lib/use-media-query'
import { cn } from '@/lib/utils'
import { accountSection, currentSection, dashboardAreas, type DashboardArea } from './dashboard-nav'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  )

function Sidebar({ area }: { area: DashboardArea }) {
  const { label, navLabel, sections } = dashboardAreas[area]
  return (
    <aside className="w-52 shrink-0">
      <h2 className="px-3 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</h2>
      <nav aria-label={navLabel}>
        <ul className="flex flex-col gap-0.5">
          {sections.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} end={s.end} className={linkClass}>
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Your account" className="mt-4 border-t pt-4">
        <NavLink to={accountSection.to} className={linkClass}>
          <span className="flex items-center gap-2">
            <UserRoundIcon className="size-4" aria-hidden="true" /> {accountSection.label}
          </span>
        </NavLink>
      </nav>
    </aside>
  )
}

function PhoneSwitcher({ area }: { area: DashboardArea }) {
  const { label, navLabel, sections } = dashboardAreas[area]
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const all = [...sections, accountSection]
  const here = currentSection(all, pathname)
  return (
    <nav aria-label={navLabel} className="mb-4">
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" className="w-full justify-between">
            <span className="truncate">
              <span className="text-muted-foreground">{label}: </span>
              {here?.label ?? 'Sections'}
            </span>
            <ChevronDownIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-[var(--radix-dropdown-menu-trigger-width)]">
          <DropdownMenuLabel>{label}</DropdownMenuLabel>
          {sections.map((s) => (
            <DropdownMenuItem key={s.to} onSelect={() => navigate(s.to)} aria-current={here === s ? 'page' : undefined}>
              {s.label}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => navigate(accountSection.to)}
            aria-current={here === accountSection ? 'page' : undefined}
          >
            {accountSection.label}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </nav>
  )
}

export function DashboardShell({ area, children }: { area: DashboardArea; children: ReactNode }) {
  const wide = useMediaQuery('(min-width: 768px)')
  return (
    <div className="mx-auto flex w-full max-w-6xl gap-8 px-4 py-6 sm:px-6 md:py-8" data-testid="dashboard-shell">
      {wide ? <Sidebar area={area} /> : null}
      <div className="min-w-0 flex-1">
        {wide ? null : <PhoneSwitcher area={area} />}
        {children}
      </div>
    </div>
  )
}
