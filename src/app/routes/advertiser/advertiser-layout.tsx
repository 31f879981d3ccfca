/** The advertiser area: advertisers and admins only, a sub-navigation, and the page. */
import { NavLink, Outlet } from 'react-router-dom'
import { paths } from '@/config/paths'
import { RequireUser } from '@/app/layouts/require-user'
import { cn } from '@/lib/utils'

const links = [
  { to: paths.advertiser.root, label: 'Overview', end: true },
  { to: paths.advertiser.analytics, label: 'Analytics', end: false },
  { to: paths.advertiser.subscribers, label: 'Subscribers', end: false },
  { to: paths.advertiser.manage, label: 'Manage', end: false },
  { to: paths.advertiser.submitNewsletter, label: 'Submit newsletter', end: false },
  { to: paths.advertiser.wallet, label: 'Wallet', end: false },
  { to: paths.advertiser.disputes, label: 'Disputes', end: false },
]

export default function AdvertiserLayoutPage() {
  return (
    <RequireUser allow={['advertiser', 'admin']}>
      <div className="mx-auto w-full max-w-6xl px-4 py-6">
        <nav aria-label="Advertiser dashboard" className="mb-6 border-b">
          <ul className="flex flex-wrap gap-x-1">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    cn(
                      'inline-block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      isActive ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Outlet />
      </div>
    </RequireUser>
  )
}
