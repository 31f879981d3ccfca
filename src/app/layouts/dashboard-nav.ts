/** The sections of each role's dashboard, in one place: the sidebar, the phone switcher and the mobile menu read it. */
import { paths } from '@/config/paths'
import type { UserType } from '@/lib/session'

export type DashboardArea = UserType
export type DashboardSection = { to: string; label: string; end?: boolean }

export const dashboardAreas: Record<DashboardArea, { label: string; navLabel: string; sections: DashboardSection[] }> =
  {
    advertiser: {
      label: 'Advertiser dashboard',
      navLabel: 'Advertiser dashboard',
      sections: [
        { to: paths.advertiser.root, label: 'Overview', end: true },
        { to: paths.advertiser.analytics, label: 'Analytics' },
        { to: paths.advertiser.submitNewsletter, label: 'Submit newsletter' },
        { to: paths.advertiser.wallet, label: 'Wallet' },
      ],
    },
    publisher: {
      label: 'Influencer dashboard',
      navLabel: 'Publisher dashboard',
      sections: [
        { to: paths.publisher.root, label: 'Overview', end: true },
        { to: paths.publisher.sources, label: 'Sources' },
        { to: paths.publisher.stats, label: 'Stats' },
        { to: paths.publisher.payouts, label: 'Payouts' },
      ],
    },
    admin: {
      label: 'Admin dashboard',
      navLabel: 'Admin dashboard',
      sections: [
        { to: paths.admin.root, label: 'Review queue', end: true },
        { to: paths.admin.users, label: 'Users' },
        { to: paths.admin.money, label: 'Money' },
      ],
    },
  }

export const accountSection: DashboardSection = { to: paths.account, label: 'Account' }

/** The section a path belongs to (the longest matching link), for the phone switcher's label. */
export function currentSection(sections: DashboardSection[], pathname: string): DashboardSection | undefined {
  return sections
    .filter((s) =>
      s.end ? pathname === s.to || pathname === `${s.to}/` : pathname === s.to || pathname.startsWith(`${s.to}/`),
    )
    .sort((a, b) => b.to.length - a.to.length)[0]
}
