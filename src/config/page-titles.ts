/**
 * The browser tab title of every route (STYLE "Dashboards": a page title per route). One table, so a route
 * cannot be added without a title (a test walks the router), and the tab says where you are, e.g.
 * "Wallet · Advertiser · Growletter". Pages whose title depends on data (one newsletter) refine it with
 * `usePageTitle`.
 */
import { brand } from './brand'
import { EARN_PATH, paths } from './paths'

const exact: Record<string, string> = {
  [paths.home]: `${brand.name} · Newsletter growth through trusted influencers`,
  [paths.login]: 'Log in',
  [paths.register]: 'Sign up',
  [paths.forgotPassword]: 'Forgot password',
  [paths.resetPassword]: 'Reset password',
  [paths.updatePassword]: 'Choose a new password',
  [paths.help]: 'Help Center',
  [paths.terms]: 'Terms of Service',
  [paths.privacy]: 'Privacy Policy',
  [paths.about]: 'About',
  [paths.cookies]: 'Cookie Policy',
  [paths.gdpr]: 'GDPR Compliance',
  [paths.contact]: 'Contact us',
  [paths.campaigns]: 'Browse Newsletters',
  [paths.newsletters]: 'Newsletters',
  [paths.newslettersUnavailable]: 'Source unavailable',
  [paths.audiences]: 'Discover Trusted Audiences',
  [paths.confirmSubscription]: 'Confirm your subscription',
  [paths.dashboard]: 'Dashboard',
  [paths.advertiser.root]: 'Overview · Advertiser',
  [paths.advertiser.analytics]: 'Analytics · Advertiser',
  [paths.advertiser.submitNewsletter]: 'Submit a newsletter · Advertiser',
  [paths.advertiser.wallet]: 'Wallet · Advertiser',
  [paths.advertiser.disputes]: 'Disputes · Advertiser',
  [paths.advertiser.subscribers]: 'Subscribers · Advertiser',
  [paths.advertiser.manage]: 'Manage newsletters · Advertiser',
  [paths.publisher.root]: 'Overview · Influencer',
  [paths.publisher.sources]: 'Sources · Influencer',
  [paths.publisher.stats]: 'Stats · Influencer',
  [paths.publisher.payouts]: 'Payouts · Influencer',
  [paths.publisher.disputes]: 'Disputes · Influencer',
  [paths.admin.root]: 'Review queue · Admin',
  [paths.admin.users]: 'Users · Admin',
  [paths.admin.money]: 'Money · Admin',
  [paths.admin.catalog]: 'Sources & newsletters · Admin',
  [paths.admin.disputes]: 'Disputes · Admin',
  [paths.admin.auditLog]: 'Audit log · Admin',
  [paths.account]: 'Account',
}

const patterns: [RegExp, string][] = [
  [EARN_PATH, 'Redirecting to newsletters'],
  [/^\/newsletters\/[^/]+$/, 'Newsletter'],
  [/^\/campaign\/admin\/[^/]+$/, 'Newsletter preview · Admin'],
  [/^\/campaign\/[^/]+\/[^/]+$/, 'A recommended newsletter'],
  [/^\/campaign\/[^/]+$/, 'Subscribe to a newsletter'],
]

/** The title part for a path; unknown paths are the not-found page. */
export function pageTitleOf(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return exact[path] ?? patterns.find(([pattern]) => pattern.test(path))?.[1] ?? 'Page not found'
}

/** The whole tab title: the page, then the brand (the home page already starts with it). */
export const documentTitle = (title: string) => (title.startsWith(brand.name) ? title : `${title} · ${brand.name}`)
