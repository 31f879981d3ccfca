/**
 * The route table (SPEC §2). Every page is loaded lazily so a public route only downloads what it shows;
 * dashboards and admin code arrive on demand. Redirects follow SPEC §2 exactly.
 */
import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router-dom'
import { paths } from '@/config/paths'
import { RootLayout } from './layouts/root-layout'
import { RouteErrorPage } from './layouts/route-error-page'

type PageModule = { default: ComponentType }
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
})

/** /dashboard/advertiser/newsletter/{id} → analytics with newsletterId set to the last path segment. */
function NewsletterAnalyticsRedirect() {
  const { id = '' } = useParams()
  return <Navigate replace to={`${paths.advertiser.analytics}?newsletterId=${encodeURIComponent(id)}`} />
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, ...page(() => import('./routes/home')) },
          { path: paths.login, ...page(() => import('./routes/login')) },
          { path: paths.register, ...page(() => import('./routes/register')) },
          { path: paths.forgotPassword, ...page(() => import('./routes/forgot-password')) },
          { path: paths.resetPassword, ...page(() => import('./routes/reset-password')) },
          { path: paths.updatePassword, ...page(() => import('./routes/update-password')) },
          { path: paths.help, ...page(() => import('./routes/help')) },
          { path: paths.terms, ...page(() => import('./routes/terms')) },
          { path: paths.privacy, ...page(() => import('./routes/privacy')) },
          { path: paths.about, ...page(() => import('./routes/about')) },
          { path: paths.cookies, ...page(() => import('./routes/cookies')) },
          { path: paths.gdpr, ...page(() => import('./routes/gdpr')) },
          { path: paths.contact, ...page(() => import('./routes/contact')) },
          { path: paths.audiences, ...page(() => import('./routes/audiences')) },
          { path: '/earn/:unifiedCode?', ...page(() => import('./routes/earn')) },
          { path: paths.campaigns, ...page(() => import('./routes/newsletters')) },
          { path: paths.newsletters, ...page(() => import('./routes/newsletters')) },
          { path: paths.newslettersUnavailable, ...page(() => import('./routes/newsletters-unavailable')) },
          { path: '/newsletters/:id', ...page(() => import('./routes/newsletter')) },
          { path: paths.confirmSubscription, ...page(() => import('./routes/confirm-subscription')) },
          { path: '/campaign', element: <Navigate replace to={paths.newsletters} /> },
          { path: '/campaign/admin/:campaignId', ...page(() => import('./routes/campaign-admin-preview')) },
          { path: '/campaign/:campaignId', ...page(() => import('./routes/campaign-link')) },
          { path: '/campaign/:magicLinkId/:campaignId', ...page(() => import('./routes/campaign-link')) },
          { path: paths.dashboard, ...page(() => import('./routes/dashboard-redirect')) },
          { path: paths.account, ...page(() => import('./routes/account')) },
          {
            path: paths.advertiser.root,
            ...page(() => import('./routes/advertiser/advertiser-layout')),
            children: [
              { index: true, ...page(() => import('./routes/advertiser/overview')) },
              { path: 'analytics', ...page(() => import('./routes/advertiser/analytics')) },
              { path: 'submit-newsletter', ...page(() => import('./routes/advertiser/submit-newsletter')) },
              { path: 'wallet', ...page(() => import('./routes/advertiser/wallet')) },
              { path: 'subscribers', ...page(() => import('./routes/advertiser/subscribers')) },
              { path: 'manage', ...page(() => import('./routes/advertiser/manage')) },
              { path: 'disputes', ...page(() => import('./routes/advertiser/disputes')) },
              { path: 'newsletters', element: <Navigate replace to={paths.advertiser.root} /> },
              { path: 'newsletter/:id', element: <NewsletterAnalyticsRedirect /> },
              { path: 'campaigns/create', element: <Navigate replace to={paths.advertiser.submitNewsletter} /> },
              { path: 'campaigns/:id', element: <Navigate replace to={paths.advertiser.analytics} /> },
            ],
          },
          { path: `${paths.publisher.root}/*`, ...page(() => import('./routes/publisher/publisher-area')) },
          { path: `${paths.admin.root}/*`, ...page(() => import('./routes/admin/admin-area')) },
          { path: '/admin/*', element: <Navigate replace to={paths.admin.root} /> },
          { path: '*', ...page(() => import('./routes/not-found')) },
        ],
      },
    ],
  },
]

export const createRouter = () => createBrowserRouter(routes)
