/** Every route of the SPA (SPEC §2). Components link through these, never through string literals. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  updatePassword: '/update-password',
  help: '/help',
  terms: '/terms',
  privacy: '/privacy',
  about: '/about',
  cookies: '/cookies',
  gdpr: '/gdpr',
  contact: '/contact',
  campaigns: '/campaigns',
  newsletters: '/newsletters',
  newsletter: (id: string) => `/newsletters/${encodeURIComponent(id)}`,
  newslettersUnavailable: '/newsletters/unavailable',
  audiences: '/audiences',
  earn: (unifiedCode: string) => `/earn/${encodeURIComponent(unifiedCode)}`,
  confirmSubscription: '/confirm-subscription',
  declineSubscription: '/decline-subscription',
  campaignLink: (magicLinkId: string, campaignId: string) =>
    `/campaign/${encodeURIComponent(magicLinkId)}/${encodeURIComponent(campaignId)}`,
  campaignPage: (campaignId: string) => `/campaign/${encodeURIComponent(campaignId)}`,
  campaignAdminPreview: (campaignId: string) => `/campaign/admin/${encodeURIComponent(campaignId)}`,
  dashboard: '/dashboard',
  advertiser: {
    root: '/dashboard/advertiser',
    analytics: '/dashboard/advertiser/analytics',
    submitNewsletter: '/dashboard/advertiser/submit-newsletter',
    wallet: '/dashboard/advertiser/wallet',
    disputes: '/dashboard/advertiser/disputes',
    subscribers: '/dashboard/advertiser/subscribers',
    partners: '/dashboard/advertiser/partners',
    manage: '/dashboard/advertiser/manage',
  },
  publisher: {
    root: '/dashboard/publisher',
    offers: '/dashboard/publisher/offers',
    sources: '/dashboard/publisher/sources',
    embed: '/dashboard/publisher/embed',
    stats: '/dashboard/publisher/stats',
    payouts: '/dashboard/publisher/payouts',
    disputes: '/dashboard/publisher/disputes',
    dispute: (disputeId: string) => `/dashboard/publisher/disputes/${encodeURIComponent(disputeId)}`,
  },
  admin: {
    root: '/dashboard/admin',
    revisions: '/dashboard/admin/revisions',
    users: '/dashboard/admin/users',
    money: '/dashboard/admin/money',
    catalog: '/dashboard/admin/catalog',
    disputes: '/dashboard/admin/disputes',
    auditLog: '/dashboard/admin/audit-log',
    messages: '/dashboard/admin/messages',
    user: (userId: string) => `/dashboard/admin/users/${encodeURIComponent(userId)}`,
    campaignAnalytics: (campaignId: string) => `/dashboard/admin/analytics/campaign/${encodeURIComponent(campaignId)}`,
    sourceAnalytics: (sourceId: string) => `/dashboard/admin/analytics/source/${encodeURIComponent(sourceId)}`,
  },
  account: '/dashboard/account',
} as const

/**
 * `/earn` and `/earn/{code}`, a trailing slash allowed: the magic-link paths, matched by this one pattern wherever a
 * door to the flow opens (main.tsx's fast path, boot's head start, the page title, and the build's dist/earn.html
 * rewrite in scripts/prerender-plugin.ts). The first group is the code as it appears in the URL (still encoded).
 * `paths.earn` builds them; the router's `/earn/:unifiedCode?` is the same shape in React Router's notation.
 */
export const EARN_PATH = /^\/earn(?:\/([^/]*))?\/?$/

export const isEarnPath = (pathname: string) => EARN_PATH.test(pathname)

/** Path prefixes where the main navigation links are hidden (SPEC §2). */
export const signedInAreaPrefixes = ['/dashboard', '/admin', '/publisher'] as const

export const isSignedInArea = (pathname: string) =>
  signedInAreaPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
