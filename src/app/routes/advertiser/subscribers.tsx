/** The advertiser's subscribers to take home: per newsletter (`?newsletterId=`) the email tool they go to, the confirmed list and CSV, and webhooks. */
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useSession } from '@/lib/session'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { QueryError } from '@/components/query-error'
import { useMyCampaignsQuery } from '@/features/campaigns/api/advertiser-campaigns-query'
import { CampaignPicker } from '@/features/campaigns/components/campaign-picker'
import { SubscriberList } from '@/features/subscribers/components/subscriber-list'
import { WebhookEndpoints } from '@/features/subscribers/components/webhook-endpoints'
import { EspConnectionPanel } from '@/features/subscribers/components/esp-connection-panel'
import { PageHeader } from '@/components/page-header'

export default function SubscribersPage() {
  const { user } = useSession()
  const campaigns = useMyCampaignsQuery(user?.id ?? '')
  const [params, setParams] = useSearchParams()
  const requested = params.get('newsletterId')

  let body: ReactNode
  if (campaigns.isPending) body = <Skeleton className="h-40" />
  else if (campaigns.isError)
    body = (
      <QueryError
        title="Could not load your newsletters"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    )
  else if (campaigns.data.length === 0)
    body = (
      <p className="text-sm text-muted-foreground">List a newsletter first: its confirmed subscribers appear here.</p>
    )
  else {
    // Without a choice in the URL, the newest newsletter that has been submitted (a draft has no subscribers yet).
    const selected =
      campaigns.data.find((c) => c.id === requested) ??
      campaigns.data.find((c) => c.status !== 'draft') ??
      campaigns.data[0]!
    body = (
      <div className="space-y-6">
        <CampaignPicker
          campaigns={campaigns.data}
          value={selected.id}
          onChange={(id) => setParams({ newsletterId: id }, { replace: true })}
        />
        <Card>
          <CardHeader>
            <CardTitle>Connect your email tool</CardTitle>
            <p className="text-sm text-muted-foreground">
              Send each confirmed subscriber of {selected.name} straight into your beehiiv, Kit, Mailchimp or MailerLite
              list, already confirmed, within a minute.
            </p>
          </CardHeader>
          <CardContent>
            <EspConnectionPanel key={selected.id} campaignId={selected.id} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Confirmed subscribers</CardTitle>
          </CardHeader>
          <CardContent>
            <SubscriberList key={selected.id} campaignId={selected.id} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Webhooks</CardTitle>
            <p className="text-sm text-muted-foreground">
              Receive <code>subscriber.confirmed</code> and <code>subscriber.refunded</code> events at your own https
              endpoint, signed per Standard Webhooks and retried for about a day if your endpoint is down.
            </p>
          </CardHeader>
          <CardContent>
            <WebhookEndpoints campaigns={campaigns.data} />
          </CardContent>
        </Card>
      </div>
    )
  }
  return (
    <>
      <PageHeader
        title="Subscribers"
        description="Confirmed subscribers of each newsletter, your email tool, the CSV export and your webhooks."
      />
      {body}
    </>
  )
}
