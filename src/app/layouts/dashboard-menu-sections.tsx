/** In the mobile menu inside a dashboard: the sections of the user's own dashboard and their account, from the route table. */
import { NavLink } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { cn } from '@/lib/utils'
import { useNavigation } from './use-navigation'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-md px-3 py-2 text-base font-medium hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  )

export function DashboardMenuSections() {
  const { userType } = useSession()
  const { label, sections, account } = useNavigation()[userType]
  return (
    <nav aria-label={`${label} sections`}>
      <p className="px-3 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</p>
      <div className="flex flex-col gap-3">
        {[...sections, { title: 'Account', items: account }].map((section) => (
          <div key={section.title}>
            <p className="px-3 pb-1 text-xs font-medium text-muted-foreground">{section.title}</p>
            <ul className="flex flex-col gap-1">
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
      </div>
    </nav>
  )
}
