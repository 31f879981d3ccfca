/**
 * Home (SPEC §2): the landing page for visitors. A signed-in user goes to the dashboard of their type
 * (profile first, then metadata, default advertiser; a failed lookup means advertiser).
 */
import { Navigate } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { PageSpinner } from '@/components/page-spinner'
import { dashboardFor } from '@/app/layouts/require-user'
import { useAuthHashSession } from '@/features/auth/hooks/use-auth-hash-session'
import { LandingAudiences, LandingHero, LandingHowItWorks } from '@/features/landing/components/landing-sections'
import { LandingShowcase } from '@/features/landing/components/landing-showcase'
import { HydrateWhenVisible } from '@/lib/deferred-hydration'

export default function HomePage() {
  // An auth email whose redirect was not allowed falls back to the site root: start its session here too.
  const link = useAuthHashSession()
  const { user, isLoading, userType } = useSession()
  if (link.status === 'pending') return <PageSpinner />
  if (!isLoading && user) return <Navigate replace to={dashboardFor(userType)} />
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-16 px-4 py-12 sm:px-6 sm:py-16">
      <LandingHero />
      {/* Below the hero on a phone: hydrated as they come into view (lib/deferred-hydration.tsx). */}
      <HydrateWhenVisible id="landing-audiences">
        <LandingAudiences />
      </HydrateWhenVisible>
      <HydrateWhenVisible id="landing-how-it-works">
        <LandingHowItWorks />
      </HydrateWhenVisible>
      <HydrateWhenVisible id="landing-showcase">
        <LandingShowcase />
      </HydrateWhenVisible>
    </div>
  )
}
