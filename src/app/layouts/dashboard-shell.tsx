/**
 * One layout for every role's dashboard (STYLE "Dashboards"): the same width and spacing, a sidebar of sections
 * on a desk, and on a phone one button naming the current page that opens the list, so no tab row wraps or
 * scrolls sideways. The menus and the breadcrumbs of deep pages come from the route table (router.tsx, through
 * `useNavigation`): a page listed there has its way in. Each page brings its own header and content.
 */
import { Fragment, type ReactNode } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom'
import { ChevronDownIcon, ChevronRightIcon, UserRoundIcon } from 'lucide-react'
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
import { currentItem, type DashboardArea } from '../navigation'
import { useBreadcrumbs, useNavigation } from './use-navigation'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  )

function Sidebar({ area }: { area: DashboardArea }) {
  const { label, navLabel, sections, account } = useNavigation()[area]
  return (
    <aside className="w-52 shrink-0">
      <h2 className="px-3 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</h2>
      <nav aria-label={navLabel} className="flex flex-col gap-3">
        {sections.map((section) => (
          <div key={section.title}>
            {sections.length > 1 ? (
              <h3 className="px-3 pb-1 text-xs font-medium text-muted-foreground">{section.title}</h3>
            ) : null}
            <ul className="flex flex-col gap-0.5">
              {section.items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end} className={linkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <nav aria-label="Your account" className="mt-4 border-t pt-4">
        {account.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className={linkClass}>
            <span className="flex items-center gap-2">
              <UserRoundIcon className="size-4" aria-hidden="true" /> {item.label}
            </span>
          </NavLink>
        ))}
      </nav>
    </aside>
  )
}

function PhoneSwitcher({ area }: { area: DashboardArea }) {
  const { label, navLabel, sections, account } = useNavigation()[area]
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const { crumbs } = useBreadcrumbs()
  // A deep page (a user, an analytics page) names the menu page it is reached from, as its breadcrumbs do; by its
  // path alone the analytics page fell back to the area's first page ("Review queue").
  const menuPath = crumbs.length > 0 ? crumbs[crumbs.length - 1]!.to : pathname
  const here = currentItem([...sections.flatMap((s) => s.items), ...account], menuPath)
  const entry = (item: (typeof account)[number]) => (
    <DropdownMenuItem
      key={item.to}
      onSelect={() => navigate(item.to)}
      aria-current={here === item ? 'page' : undefined}
    >
      {item.label}
    </DropdownMenuItem>
  )
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
          {sections.map((section, index) => (
            <Fragment key={section.title}>
              {index > 0 ? <DropdownMenuSeparator /> : null}
              <DropdownMenuLabel>{section.title}</DropdownMenuLabel>
              {section.items.map(entry)}
            </Fragment>
          ))}
          <DropdownMenuSeparator />
          {account.map(entry)}
        </DropdownMenuContent>
      </DropdownMenu>
    </nav>
  )
}

/** The way back up from a page reached through another one (e.g. Overview › Submit a newsletter). */
function Breadcrumbs() {
  const { crumbs, current } = useBreadcrumbs()
  if (crumbs.length === 0) return null
  return (
    <nav aria-label="Breadcrumb" className="mb-3">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
        {crumbs.map((crumb) => (
          <li key={crumb.to} className="flex items-center gap-1">
            <Link
              to={crumb.to}
              className="rounded hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {crumb.label}
            </Link>
            <ChevronRightIcon className="size-3.5" aria-hidden="true" />
          </li>
        ))}
        <li aria-current="page" className="min-w-0 truncate text-foreground">
          {current}
        </li>
      </ol>
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
        <Breadcrumbs />
        {children}
      </div>
    </div>
  )
}
