import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, within, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../../testing/msw-server'
import { renderRoute } from '../../../testing/render-route'
import { postgrestError, signInAs } from '../../../testing/signed-in-fixtures'

const pendingCampaign = {
  id: 'c9',
  name: 'Morning Brew',
  description: 'Business news',
  website_url: 'https://brew.example',
  category: 'business',
  price_per_subscriber: 2,
  budget_total: 100,
  status: 'pending_review',
  created_at: '2026-11-01T00:00:00Z',
  advertiser: { full_name: 'Ada Advertiser' },
}
const pendingSource = {
  id: 's9',
  name: 'Growth Tweets',
  description: 'Threads about growth',
  url: 'https://x.com/growth',
  platform: 'x',
  category: 'marketing',
  status: 'pending_review',
  created_at: '2026-11-01T00:00:00Z',
  publisher: { full_name: 'Pat Publisher' },
}
const auditEvent = {
  id: 'e1',
  subject_type: 'campaign',
  subject_id: 'c0000000-0000-4000-8000-000000000000',
  subject_name: 'Morning Brew',
  old_status: 'pending_review',
  new_status: 'rejected',
  reason: 'Website unreachable',
  created_at: '2026-11-01T00:00:00Z',
  actor_name: 'Alex Admin',
  total_count: 1,
}

function queue({ campaigns = [pendingCampaign], sources = [pendingSource], events = [auditEvent] } = {}) {
  return [
    http.get(restUrl('campaigns'), () => HttpResponse.json(campaigns)),
    http.get(restUrl('audience_sources'), () => HttpResponse.json(sources)),
    // The audit log with names comes from the database (admin_audit_log), a page at a time.
    http.get(restUrl('rpc/admin_audit_log'), () => HttpResponse.json(events)),
  ]
}

describe('admin review queue', () => {
  it('is for admins only: an advertiser lands on their own dashboard', async () => {
    signInAs('advertiser')
    server.use(
      http.get(restUrl('wallets'), () => new Promise(() => {})),
      http.get(restUrl('campaigns'), () => new Promise(() => {})),
    )
    const { router } = renderRoute('/dashboard/admin')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
  })

  it('shows loading placeholders', async () => {
    signInAs('admin')
    const never = () => new Promise<never>(() => {})
    server.use(
      http.get(restUrl('campaigns'), never),
      http.get(restUrl('audience_sources'), never),
      http.get(restUrl('rpc/admin_audit_log'), never),
    )
    renderRoute('/dashboard/admin')
    expect(await screen.findByRole('status', { name: 'Loading newsletters to review' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading sources to review' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading the audit log' })).toBeInTheDocument()
  })

  it('says when nothing waits for review', async () => {
    signInAs('admin')
    server.use(...queue({ campaigns: [], sources: [], events: [] }))
    renderRoute('/dashboard/admin')
    expect(await screen.findByText('No newsletters waiting for review.')).toBeInTheDocument()
    expect(screen.getByText('No sources waiting for review.')).toBeInTheDocument()
    expect(await screen.findByText('No decisions recorded yet.')).toBeInTheDocument()
  })

  it('says so when the queue cannot be loaded', async () => {
    signInAs('admin')
    server.use(
      http.get(restUrl('campaigns'), () => postgrestError(500, 'queue offline')),
      ...queue(),
    )
    renderRoute('/dashboard/admin')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load newsletters to review')
    expect(alert).toHaveTextContent('queue offline')
  })

  it('lists waiting newsletters and sources with their owners, and the audit log', async () => {
    signInAs('admin')
    server.use(...queue())
    renderRoute('/dashboard/admin')
    const campaign = await screen.findByTestId('review-campaign')
    expect(campaign).toHaveTextContent('Morning Brew')
    expect(campaign).toHaveTextContent('By Ada Advertiser')
    expect(within(campaign).getByRole('link', { name: 'Preview Morning Brew' })).toHaveAttribute(
      'href',
      '/campaign/admin/c9',
    )
    expect(screen.getByTestId('review-source')).toHaveTextContent('By Pat Publisher')
    const log = await screen.findByTestId('audit-log')
    expect(log).toHaveTextContent('Alex Admin')
    expect(log).toHaveTextContent('Newsletter: Morning Brew')
    expect(log).not.toHaveTextContent('c0000000')
    expect(log).toHaveTextContent('Pending review → Rejected')
    expect(log).toHaveTextContent('Website unreachable')
  })

  it('approves a newsletter through admin_set_campaign_status and refreshes the queue', async () => {
    signInAs('admin')
    let campaigns = [pendingCampaign]
    const calls: unknown[] = []
    server.use(
      http.get(restUrl('campaigns'), () => HttpResponse.json(campaigns)),
      http.post(restUrl('rpc/admin_set_campaign_status'), async ({ request }) => {
        calls.push(await request.json())
        campaigns = []
        return HttpResponse.json({ id: 'c9', status: 'active' })
      }),
      ...queue(),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin')
    await user.click(await screen.findByRole('button', { name: 'Approve Morning Brew' }))
    const dialog = await screen.findByRole('dialog', { name: /Approve newsletter “Morning Brew”/ })
    // Reasons pasted (click, then paste), not typed key by key: the tests are about what is sent.
    await user.click(within(dialog).getByLabelText('Reason (optional)'))
    await user.paste('Looks good')
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))
    expect(await screen.findByText('No newsletters waiting for review.')).toBeInTheDocument()
    expect(calls).toEqual([{ p_campaign_id: 'c9', p_status: 'active', p_reason: 'Looks good' }])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('will not reject without a reason, then rejects a source with one through admin_set_source_status', async () => {
    signInAs('admin')
    const calls: unknown[] = []
    server.use(
      http.post(restUrl('rpc/admin_set_source_status'), async ({ request }) => {
        calls.push(await request.json())
        return HttpResponse.json({ id: 's9', status: 'rejected' })
      }),
      ...queue(),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin')
    await user.click(await screen.findByRole('button', { name: 'Reject Growth Tweets' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }))
    expect(
      within(dialog).getByText('Give a reason: the owner sees it and it is kept in the audit log.'),
    ).toBeInTheDocument()
    expect(calls).toEqual([])
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Not your account')
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }))
    expect(await screen.findByText('Growth Tweets: Rejected')).toBeInTheDocument()
    expect(calls).toEqual([{ p_source_id: 's9', p_status: 'rejected', p_reason: 'Not your account' }])
  })

  it("bans a source and shows the database's message when it refuses", async () => {
    signInAs('admin')
    server.use(
      http.post(restUrl('rpc/admin_set_source_status'), () =>
        postgrestError(403, 'Only an admin can do this', '42501'),
      ),
      ...queue(),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/admin')
    await user.click(await screen.findByRole('button', { name: 'Ban Growth Tweets' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByLabelText('Reason'))
    await user.paste('Fake traffic')
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }))
    expect(await screen.findByText('Failed to save the decision: Only an admin can do this')).toBeInTheDocument()
  })
})
