/** In the mobile menu inside a dashboard: the sections of the user's own dashboard and their account. */
import { NavLink } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { cn } from '@/lib/utils'
import { accountSection, dashboardAreas } from './dashboard-nav'

export function DashboardMenuSections() {
  const { userType } = useSession()
  const area = dashboardAreas[userType]
  return (
    <nav aria-label={`${area.label} sections`}>
      <p className="px-3 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{area.label}</p>
      <ul className="flex flex-col gap-1">
        {[...area.sections, accountSection].map((s) => (
          <li key={s.to}>
            <NavLink
              to={s.to}
              end={s.end}
              className={({ isActive }) =>
                cn(
                  'block rounded-md px-3 py-2 text-base font-medium hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
                )
              }
            >
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
