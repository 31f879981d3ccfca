/**
 * The route table (SPEC §2): every page of the SPA, and the only one (STYLE "Routes and menus"). Each route's
 * `handle` says what the page is (title, role, menu section and label, or the page it is reached from); the
 * menus, the phone's section switcher, the mobile menu, tab titles and breadcrumbs are generated from it
 * (`navigation.ts`), so a page cannot exist without its way in. No area keeps a router of its own.
 *
 * Every page is loaded lazily so a public route only downloads what it shows; dashboards and admin code arrive
 * on demand. Redirects follow SPEC §2 exactly.
 */
import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { RootLayout } from './layouts/root-layout'
import { RouteErrorPage } from './layouts/route-error-page'
import { rootHandle, type MenuPlacement, type RouteMeta } from './navigation'

type PageModule = { default: ComponentType }
/** A page that may pass conflicting classes: tailwind-merge (src/lib/class-merge.ts) is installed before it loads. */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    await import('@/lib/class-merge')
    return { Component: (await load()).default }
  },
})
/**
 * A public landing page (the prerendered pages, log-in, sign-up and the magic link's): its classes never conflict, so it renders
 * without tailwind-merge (`cn` in src/lib/utils.ts).
 */
const publicPage = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
})

const titled = (title: string, more: Omit<RouteMeta, 'title'> = {}): Pick<RouteObject, 'handle'> => ({
  handle: { title, ...more } satisfies RouteMeta,
})
/** A page listed in its role's menu. */
const menu = (
  title: string,
  section: string,
  order: number,
  { label, role, parent }: Pick<MenuPlacement, 'label'> & Pick<RouteMeta, 'role' | 'parent'> = {},
) =>
  titled(title, { ...(role && { role }), ...(parent && { parent }), menu: { section, order, ...(label && { label }) } })
/** A route that only sends the visitor elsewhere. */
const redirect = (to: string): Pick<RouteObject, 'element' | 'handle'> => ({
  element: <Navigate replace to={to} />,
  ...titled('Redirecting', { redirect: true }),
})

/** /dashboard/advertiser/newsletter/{id} → analytics with newsletterId set to the last path segment. */
function NewsletterAnalyticsRedirect() {
  const { id = '' } = useParams()
  return <Navigate replace to={`${paths.advertiser.analytics}?newsletterId=${encodeURIComponent(id)}`} />
}

const advertiserArea: RouteObject = {
  path: paths.advertiser.root,
  ...page(() => import('./routes/advertiser/advertiser-layout')),
  ...titled('Advertiser dashboard', {
    area: { role: 'advertiser', name: 'Advertiser', label: 'Advertiser dashboard', navLabel: 'Advertiser dashboard' },
  }),
  children: [
    { index: true, ...page(() => import('./routes/advertiser/overview')), ...menu('Overview', 'Newsletters', 10) },
    {
      path: 'analytics',
      ...page(() => import('./routes/advertiser/analytics')),
      ...menu('Analytics', 'Newsletters', 20),
    },
    {
      path: 'subscribers',
      ...page(() => import('./routes/advertiser/subscribers')),
      ...menu('Subscribers', 'Newsletters', 30),
    },
    {
      path: 'partners',
      ...page(() => import('./routes/advertiser/partners')),
      ...menu('Partners', 'Newsletters', 35),
    },
    {
      path: 'manage',
      ...page(() => import('./routes/advertiser/manage')),
      ...menu('Manage newsletter', 'Newsletters', 40, { label: 'Manage' }),
    },
    {
      path: 'submit-newsletter',
      ...page(() => import('./routes/advertiser/submit-newsletter')),
      ...menu('Submit a newsletter', 'Newsletters', 50, { label: 'Submit newsletter', parent: paths.advertiser.root }),
    },
    { path: 'wallet', ...page(() => import('./routes/advertiser/wallet')), ...menu('Wallet', 'Money', 60) },
    { path: 'disputes', ...page(() => import('./routes/advertiser/disputes')), ...menu('Disputes', 'Money', 70) },
    { path: 'newsletters', ...redirect(paths.advertiser.root) },
    { path: 'newsletter/:id', element: <NewsletterAnalyticsRedirect />, ...titled('Redirecting', { redirect: true }) },
    { path: 'campaigns/create', ...redirect(paths.advertiser.submitNewsletter) },
    { path: 'campaigns/:id', ...redirect(paths.advertiser.analytics) },
  ],
}

const publisherArea: RouteObject = {
  path: paths.publisher.root,
  ...page(() => import('./routes/publisher/publisher-layout')),
  ...titled('Influencer dashboard', {
    area: { role: 'publisher', name: 'Influencer', label: 'Influencer dashboard', navLabel: 'Publisher dashboard' },
  }),
  children: [
    { index: true, ...page(() => import('./routes/publisher/overview')), ...menu('Overview', 'Audience', 10) },
    { path: 'offers', ...page(() => import('./routes/publisher/offers')), ...menu('Offers', 'Audience', 15) },
    { path: 'sources', ...page(() => import('./routes/publisher/sources')), ...menu('Sources', 'Audience', 20) },
    { path: 'embed', ...page(() => import('./routes/publisher/embed')), ...menu('Embed', 'Audience', 25) },
    { path: 'stats', ...page(() => import('./routes/publisher/stats')), ...menu('Stats', 'Audience', 30) },
    { path: 'payouts', ...page(() => import('./routes/publisher/payouts')), ...menu('Payouts', 'Money', 40) },
    { path: 'disputes', ...page(() => import('./routes/publisher/disputes')), ...menu('Disputes', 'Money', 50) },
    {
      path: 'disputes/:disputeId',
      ...page(() => import('./routes/publisher/dispute')),
      // Opened from a row of Disputes, or from the email that announced the dispute.
      ...titled('Dispute', { parent: paths.publisher.disputes }),
    },
    { path: '*', ...redirect(paths.publisher.root) },
  ],
}

// Ten admin tools in four short sections, so the list fits a phone's switcher without scrolling.
const adminArea: RouteObject = {
  path: paths.admin.root,
  ...page(() => import('./routes/admin/admin-layout')),
  ...titled('Admin dashboard', {
    area: { role: 'admin', name: 'Admin', label: 'Admin dashboard', navLabel: 'Admin dashboard' },
  }),
  children: [
    { index: true, ...page(() => import('./routes/admin/review')), ...menu('Review queue', 'Review', 10) },
    {
      path: 'revisions',
      ...page(() => import('./routes/admin/revisions')),
      ...menu('Revisions', 'Review', 15),
    },
    { path: 'disputes', ...page(() => import('./routes/admin/disputes')), ...menu('Disputes', 'Review', 20) },
    {
      path: 'catalog',
      ...page(() => import('./routes/admin/catalog')),
      ...menu('Sources & newsletters', 'Market', 30),
    },
    { path: 'money', ...page(() => import('./routes/admin/money')), ...menu('Money', 'Money', 40) },
    { path: 'users', ...page(() => import('./routes/admin/users')), ...menu('Users', 'People', 50) },
    {
      path: 'users/:userId',
      ...page(() => import('./routes/admin/user')),
      ...titled('User', { parent: paths.admin.users }),
    },
    {
      path: 'analytics/:kind/:id',
      ...page(() => import('./routes/admin/analytics')),
      // Opened from a row of Sources & newsletters or from a user's page.
      ...titled('Analytics', { parent: paths.admin.catalog }),
    },
    { path: 'messages', ...page(() => import('./routes/admin/messages')), ...menu('Messages', 'People', 55) },
    { path: 'audit-log', ...page(() => import('./routes/admin/audit-log')), ...menu('Audit log', 'People', 60) },
    { path: '*', ...redirect(paths.admin.root) },
  ],
}

const pages: RouteObject[] = [
  {
    index: true,
    ...publicPage(() => import('./routes/home')),
    ...titled(`${brand.name} · Newsletter growth through trusted influencers`),
  },
  { path: paths.login, ...publicPage(() => import('./routes/login')), ...titled('Log in') },
  { path: paths.register, ...publicPage(() => import('./routes/register')), ...titled('Sign up') },
  { path: paths.forgotPassword, ...page(() => import('./routes/forgot-password')), ...titled('Forgot password') },
  { path: paths.resetPassword, ...page(() => import('./routes/reset-password')), ...titled('Reset password') },
  { path: paths.updatePassword, ...page(() => import('./routes/update-password')), ...titled('Choose a new password') },
  { path: paths.help, ...publicPage(() => import('./routes/help')), ...titled('Help Center') },
  { path: paths.terms, ...publicPage(() => import('./routes/terms')), ...titled('Terms of Service') },
  { path: paths.privacy, ...publicPage(() => import('./routes/privacy')), ...titled('Privacy Policy') },
  { path: paths.about, ...publicPage(() => import('./routes/about')), ...titled('About') },
  { path: paths.cookies, ...publicPage(() => import('./routes/cookies')), ...titled('Cookie Policy') },
  { path: paths.gdpr, ...publicPage(() => import('./routes/gdpr')), ...titled('GDPR Compliance') },
  { path: paths.contact, ...publicPage(() => import('./routes/contact')), ...titled('Contact us') },
  { path: paths.audiences, ...publicPage(() => import('./routes/audiences')), ...titled('Discover Trusted Audiences') },
  {
    path: '/earn/:unifiedCode?',
    ...publicPage(() => import('./routes/earn')),
    ...titled('Redirecting to newsletters'),
  },
  { path: paths.campaigns, ...publicPage(() => import('./routes/newsletters')), ...titled('Browse Newsletters') },
  { path: paths.newsletters, ...publicPage(() => import('./routes/newsletters')), ...titled('Newsletters') },
  {
    path: paths.newslettersUnavailable,
    ...publicPage(() => import('./routes/newsletters-unavailable')),
    ...titled('Source unavailable'),
  },
  { path: '/newsletters/:id', ...page(() => import('./routes/newsletter')), ...titled('Newsletter') },
  {
    path: paths.confirmSubscription,
    ...page(() => import('./routes/confirm-subscription')),
    ...titled('Confirm your subscription'),
  },
  {
    path: paths.declineSubscription,
    ...page(() => import('./routes/decline-subscription')),
    ...titled('Decline a subscription'),
  },
  { path: '/campaign', ...redirect(paths.newsletters) },
  {
    path: '/campaign/admin/:campaignId',
    ...page(() => import('./routes/campaign-admin-preview')),
    // Opened from a newsletter waiting in the review queue.
    ...titled('Newsletter preview · Admin', { role: 'admin', parent: paths.admin.root }),
  },
  {
    path: '/campaign/:campaignId',
    ...page(() => import('./routes/campaign-link')),
    ...titled('Subscribe to a newsletter'),
  },
  {
    path: '/campaign/:magicLinkId/:campaignId',
    ...page(() => import('./routes/campaign-link')),
    ...titled('A recommended newsletter'),
  },
  // Sends a signed-in user to their dashboard: a redirect, yet with a page of its own while an email link signs in.
  {
    path: paths.dashboard,
    ...page(() => import('./routes/dashboard-redirect')),
    ...titled('Dashboard', { redirect: true }),
  },
  {
    path: paths.account,
    ...page(() => import('./routes/account')),
    ...menu('Account', 'Account', 100, { role: 'user' }),
  },
  advertiserArea,
  publisherArea,
  adminArea,
  { path: '/admin/*', ...redirect(paths.admin.root) },
  { path: '*', ...page(() => import('./routes/not-found')), ...titled('Page not found') },
]

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [{ errorElement: <RouteErrorPage />, children: pages }],
  },
]
// Generated once from the table above and handed to every component through the root's matches.
routes[0]!.handle = rootHandle(routes)

export const createRouter = () => createBrowserRouter(routes)
