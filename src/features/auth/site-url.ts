/**
 * Where auth emails send people back to (SPEC §7): the production origin when VITE_PUBLIC_SITE_URL is set,
 * else the origin the app is running on. Links in emails must never point at a preview or dev host by accident.
 */
import { env } from '@/config/env'
import { paths } from '@/config/paths'

export function siteOrigin(
  configured: string | undefined = env.VITE_PUBLIC_SITE_URL,
  current = window.location.origin,
) {
  return (configured ?? current).replace(/\/+$/, '')
}

/** The confirmation link lands on /dashboard, which then sends the user to their own dashboard. */
export const emailRedirectUrl = () => `${siteOrigin()}${paths.dashboard}`
export const passwordResetRedirectUrl = () => `${siteOrigin()}${paths.resetPassword}`
