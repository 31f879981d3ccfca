/** Tabs of the publisher area as links, so each part has its own URL under /dashboard/publisher. */
import { NavLink } from 'react-router-dom'
import { paths } from '@/config/paths'
import { cn } from '@/lib/utils'

const LINKS = [
  { to: paths.publisher.root, label: 'Overview', end: true },
  { to: `${paths.publisher.root}/sources`, label: 'Sources', end: false },
  { to: `${paths.publisher.root}/stats`, label: 'Stats', end: false },
  { to: `${paths.publisher.root}/payouts`, label: 'Payouts', end: false },
  { to: `${paths.publisher.root}/disputes`, label: 'Disputes', end: false },
]

export function PublisherNav() {
  return (
    <nav aria-label="Publisher dashboard" className="flex gap-1 overflow-x-auto border-b">
      {LINKS.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end={link.end}
          className={({ isActive }) =>
            cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              isActive ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )
          }
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  )
}
