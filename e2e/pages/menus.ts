/**
 * The pages of each role, as the route table lists them (src/app/router.tsx), with the h1 each one shows: what
 * e2e/menus.spec.ts must reach by clicking from the role's landing page. src/app/navigation.test.ts fails
 * when this list and the table disagree, so a page added to the table is walked here too.
 */
export type MenuRole = 'advertiser' | 'publisher' | 'admin'
export type RolePage = { path: string; heading: string }

export const rolePages: Record<MenuRole, RolePage[]> = {
  advertiser: [
    { path: '/dashboard/advertiser', heading: 'Overview' },
    { path: '/dashboard/advertiser/analytics', heading: 'Analytics' },
    { path: '/dashboard/advertiser/subscribers', heading: 'Subscribers' },
    { path: '/dashboard/advertiser/partners', heading: 'Partners' },
    { path: '/dashboard/advertiser/manage', heading: 'Manage newsletter' },
    { path: '/dashboard/advertiser/submit-newsletter', heading: 'Submit a newsletter' },
    { path: '/dashboard/advertiser/wallet', heading: 'Wallet' },
    { path: '/dashboard/advertiser/disputes', heading: 'Disputes' },
    { path: '/dashboard/account', heading: 'Account' },
  ],
  publisher: [
    { path: '/dashboard/publisher', heading: 'Overview' },
    { path: '/dashboard/publisher/offers', heading: 'Offers' },
    { path: '/dashboard/publisher/sources', heading: 'Sources' },
    { path: '/dashboard/publisher/embed', heading: 'Embed' },
    { path: '/dashboard/publisher/stats', heading: 'Stats' },
    { path: '/dashboard/publisher/payouts', heading: 'Payouts' },
    { path: '/dashboard/publisher/disputes', heading: 'Disputes' },
    { path: '/dashboard/account', heading: 'Account' },
  ],
  admin: [
    { path: '/dashboard/admin', heading: 'Review queue' },
    { path: '/dashboard/admin/revisions', heading: 'Revisions' },
    { path: '/dashboard/admin/disputes', heading: 'Disputes' },
    { path: '/dashboard/admin/catalog', heading: 'Sources & newsletters' },
    { path: '/dashboard/admin/money', heading: 'Money' },
    { path: '/dashboard/admin/users', heading: 'Users' },
    { path: '/dashboard/admin/messages', heading: 'Messages' },
    { path: '/dashboard/admin/audit-log', heading: 'Audit log' },
    { path: '/dashboard/account', heading: 'Account' },
  ],
}
