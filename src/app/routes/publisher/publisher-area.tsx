/**
 * `/dashboard/publisher/*` (PRODUCT.md "Publisher dashboard"): overview, sources, stats and payouts for
 * publishers (influencers) and admins, and disputes about their sources, as nested routes in the one dashboard layout.
 */
import { Navigate, Route, Routes } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { RequireUser } from '@/app/layouts/require-user'
import { DashboardShell } from '@/app/layouts/dashboard-shell'
import { PageHeader } from '@/components/page-header'
import { OverviewPanel } from '@/features/publisher/components/overview-panel'
import { PayoutsPanel } from '@/features/publisher/components/payouts-panel'
import { SourcesPanel } from '@/features/publisher/components/sources-panel'
import { StatsPanel } from '@/features/publisher/components/stats-panel'
import { DisputesList } from '@/features/disputes/components/disputes-list'

function PublisherArea() {
  const { user } = useSession()
  const userId = user!.id
  return (
    <DashboardShell area="publisher">
      <Routes>
        <Route
          index
          element={
            <>
              <PageHeader
                title="Overview"
                description="Share your magic links, follow your clicks and subscribers, get paid."
              />
              <OverviewPanel userId={userId} />
            </>
          }
        />
        <Route
          path="sources"
          element={
            <>
              <PageHeader
                title="Sources"
                description="Each approved source has a magic link; new sources wait for review."
              />
              <SourcesPanel userId={userId} />
            </>
          }
        />
        <Route
          path="stats"
          element={
            <>
              <PageHeader
                title="Stats"
                description="Views, clicks, confirmed subscribers and earnings per source and per newsletter."
              />
              <StatsPanel userId={userId} />
            </>
          }
        />
        <Route
          path="payouts"
          element={
            <>
              <PageHeader
                title="Payouts"
                description="Request a payout of your available earnings and follow its history."
              />
              <PayoutsPanel userId={userId} />
            </>
          }
        />
        <Route
          path="disputes"
          element={
            <>
              <PageHeader
                title="Disputes"
                description="Disputes advertisers opened about your sources, and their outcome."
              />
              <DisputesList side="publisher" />
            </>
          }
        />
        <Route path="*" element={<Navigate replace to={paths.publisher.root} />} />
      </Routes>
    </DashboardShell>
  )
}

export default function PublisherAreaPage() {
  return (
    <RequireUser allow={['publisher', 'admin']}>
      <PublisherArea />
    </RequireUser>
  )
}
