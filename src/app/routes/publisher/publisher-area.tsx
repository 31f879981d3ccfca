/**
 * `/dashboard/publisher/*` (PRODUCT.md "Publisher dashboard"): overview, sources, stats and payouts for
 * publishers (influencers) and admins, as nested routes.
 */
import { Navigate, Route, Routes } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { RequireUser } from '@/app/layouts/require-user'
import { OverviewPanel } from '@/features/publisher/components/overview-panel'
import { PayoutsPanel } from '@/features/publisher/components/payouts-panel'
import { PublisherNav } from '@/features/publisher/components/publisher-nav'
import { SourcesPanel } from '@/features/publisher/components/sources-panel'
import { StatsPanel } from '@/features/publisher/components/stats-panel'
import { DisputesList } from '@/features/disputes/components/disputes-list'

function PublisherArea() {
  const { user } = useSession()
  const userId = user!.id
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Influencer dashboard</h1>
        <p className="text-muted-foreground">Share your magic links, follow your clicks and subscribers, get paid.</p>
      </header>
      <PublisherNav />
      <Routes>
        <Route index element={<OverviewPanel userId={userId} />} />
        <Route path="sources" element={<SourcesPanel userId={userId} />} />
        <Route path="stats" element={<StatsPanel userId={userId} />} />
        <Route path="payouts" element={<PayoutsPanel userId={userId} />} />
        <Route
          path="disputes"
          element={
            <section aria-labelledby="publisher-disputes" className="flex flex-col gap-3">
              <h2 id="publisher-disputes" className="text-xl font-semibold">
                Disputes about your sources
              </h2>
              <DisputesList side="publisher" />
            </section>
          }
        />
        <Route path="*" element={<Navigate replace to={paths.publisher.root} />} />
      </Routes>
    </div>
  )
}

export default function PublisherAreaPage() {
  return (
    <RequireUser allow={['publisher', 'admin']}>
      <PublisherArea />
    </RequireUser>
  )
}
