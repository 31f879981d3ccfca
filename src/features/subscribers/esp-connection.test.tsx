// "Connect your email tool" on the subscribers page (issue 25): the form's own checks (the words of
// @rules/esp-connection, nothing sent), the provider's lists, "Test connection" with the provider's answer, save
// with backfill through save_esp_connection and the database's refusal shown; connected, disconnect behind a
// confirmation; and each subscriber's delivery state (Delivered, Queued, Failed with the message and Retry).
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ESP_KEY_MESSAGES } from '@rules/esp-connection'
import { functionsUrl, restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { postgrestError, signInAs } from '../../testing/signed-in-fixtures'

const PAGE = '/dashboard/advertiser/subscribers'
const campaign = {
  id: 'c1',
  name: 'Morning Brew',
  category: 'business',
  image_url: null,
  status: 'active',
  review_note: null,
  price_per_subscriber: 2,
  budget_total: 100,
  budget_spent: 10,
  created_at: '2026-11-01T10:00:00Z',
}
const subscriber = (id: string, email: string) => ({
  id,
  email,
  confirmed_at: '2026-11-01T10:00:00Z',
  source_name: 'Growth Tweets',
  status: 'confirmed',
  counted: true,
  not_counted_reason: null as string | null,
  reason_label: null as string | null,
  price: 2 as number | null,
})
const CONNECTION = {
  id: 'e1',
  provider: 'mailerlite',
  target_id: 'g1',
  target_name: 'Newsletter readers',
  created_at: '2026-11-02T10:00:00Z',
}

function page({
  connection = null as typeof CONNECTION | null,
  deliveries = [] as unknown[],
  subscribers = [subscriber('s1', 'ann@example.com')],
} = {}) {
  const state = { connection, rpc: [] as { name: string; body: Record<string, unknown> }[], lookups: [] as unknown[] }
  signInAs('advertiser')
  server.use(
    http.get(restUrl('campaigns'), () => HttpResponse.json([campaign])),
    http.get(restUrl('webhook_endpoints'), () => HttpResponse.json([])),
    http.get(restUrl('rpc/campaign_subscribers'), () => HttpResponse.json(subscribers)),
    http.get(restUrl('rpc/campaign_subscriber_count'), () => HttpResponse.json(3)),
    http.get(restUrl('rpc/campaign_subscriber_totals'), () => HttpResponse.json({ confirmed: 2, refunded: 1 })),
    http.get(restUrl('esp_connections'), () => HttpResponse.json(state.connection ? [state.connection] : [])),
    http.get(restUrl('esp_deliveries'), () => HttpResponse.json(deliveries)),
    http.post(restUrl('rpc/:name'), async ({ params, request }) => {
      const name = String(params.name)
      const body = (await request.json()) as Record<string, unknown>
      state.rpc.push({ name, body })
      if (name === 'save_esp_connection') {
        if (body.p_target_id === 'g2') return postgrestError(400, 'You can only connect your own newsletters', '42501')
        state.connection = { ...CONNECTION, target_id: String(body.p_target_id) }
        return HttpResponse.json(3)
      }
      if (name === 'disconnect_esp') {
        state.connection = null
        return HttpResponse.json(true)
      }
      return HttpResponse.json(null)
    }),
    http.post(functionsUrl('esp-connection'), async ({ request }) => {
      const body = (await request.json()) as { action: string; apiKey: string; targetId?: string }
      state.lookups.push(body)
      if (body.apiKey === 'wrong-key')
        return HttpResponse.json({ ok: false, message: 'MailerLite did not accept this API key: Unauthenticated.' })
      if (body.action === 'targets')
        return HttpResponse.json({
          ok: true,
          targets: [
            { id: 'g1', name: 'Newsletter readers' },
            { id: 'g2', name: 'Partners' },
          ],
        })
      return HttpResponse.json({ ok: true, target: { id: body.targetId, name: 'Newsletter readers' } })
    }),
  )
  return state
}

const form = async () => within(await screen.findByTestId('esp-connect-form'))

// API keys are pasted (click, then paste), as people do, not typed key by key: what is checked is what the form
// does with a key.

describe('connect your email tool', () => {
  it('checks provider and key in the form before asking anyone', async () => {
    const state = page()
    renderRoute(PAGE)
    const f = await form()
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    expect(await f.findByText(ESP_KEY_MESSAGES.provider)).toBeInTheDocument()
    await userEvent.selectOptions(f.getByLabelText('Email tool'), 'mailchimp')
    await userEvent.click(f.getByLabelText('API key'))
    await userEvent.paste('abc123')
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    expect(await f.findByText(ESP_KEY_MESSAGES.mailchimpDataCentre)).toBeInTheDocument()
    await userEvent.clear(f.getByLabelText('API key'))
    await userEvent.click(f.getByLabelText('API key'))
    await userEvent.paste('two words')
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    expect(await f.findByText(ESP_KEY_MESSAGES.spaces)).toBeInTheDocument()
    expect(state.lookups).toEqual([])
  })

  it('shows the provider’s refusal of a key in its own words', async () => {
    page()
    renderRoute(PAGE)
    const f = await form()
    await userEvent.selectOptions(f.getByLabelText('Email tool'), 'mailerlite')
    await userEvent.click(f.getByLabelText('API key'))
    await userEvent.paste('wrong-key')
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    expect(await f.findByTestId('esp-check')).toHaveTextContent(
      'MailerLite did not accept this API key: Unauthenticated.',
    )
    expect(f.queryByRole('button', { name: 'Save connection' })).not.toBeInTheDocument()
  })

  it('loads the lists, tests the connection and saves it with the subscribers who already confirmed', async () => {
    const state = page()
    renderRoute(PAGE)
    const f = await form()
    await userEvent.selectOptions(f.getByLabelText('Email tool'), 'mailerlite')
    await userEvent.click(f.getByLabelText('API key'))
    await userEvent.paste('  ml-key  ')
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    const list = await f.findByLabelText('Send subscribers to this group')
    await userEvent.click(f.getByRole('button', { name: 'Save connection' }))
    expect(await f.findByText(ESP_KEY_MESSAGES.target)).toBeInTheDocument()
    await userEvent.selectOptions(list, 'g1')
    await userEvent.click(f.getByRole('button', { name: 'Test connection' }))
    expect(await f.findByTestId('esp-check')).toHaveTextContent('Connection works: Newsletter readers is ready.')
    const backfill = f.getByRole('checkbox', { name: 'Also send the 3 subscribers who already confirmed' })
    expect(backfill).toBeChecked()
    await userEvent.click(f.getByRole('button', { name: 'Save connection' }))
    expect(await screen.findByTestId('esp-connected')).toHaveTextContent(
      'Connected to MailerLite: new confirmed subscribers go to Newsletter readers within a minute.',
    )
    expect(state.rpc.find((c) => c.name === 'save_esp_connection')?.body).toEqual({
      p_campaign_id: 'c1',
      p_provider: 'mailerlite',
      p_api_key: 'ml-key',
      p_target_id: 'g1',
      p_target_name: 'Newsletter readers',
      p_backfill: true,
    })
  })

  it('shows the database’s refusal under the form', async () => {
    page()
    renderRoute(PAGE)
    const f = await form()
    await userEvent.selectOptions(f.getByLabelText('Email tool'), 'mailerlite')
    await userEvent.click(f.getByLabelText('API key'))
    await userEvent.paste('ml-key')
    await userEvent.click(f.getByRole('button', { name: 'Load lists' }))
    await userEvent.selectOptions(await f.findByLabelText('Send subscribers to this group'), 'g2')
    await userEvent.click(f.getByRole('checkbox'))
    await userEvent.click(f.getByRole('button', { name: 'Save connection' }))
    expect(await f.findByText('You can only connect your own newsletters')).toBeInTheDocument()
  })

  it('disconnects only after the confirmation', async () => {
    const state = page({ connection: CONNECTION })
    renderRoute(PAGE)
    const connected = await screen.findByTestId('esp-connected')
    await userEvent.click(within(connected).getByRole('button', { name: 'Disconnect' }))
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect MailerLite?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep connected' }))
    expect(state.rpc.filter((c) => c.name === 'disconnect_esp')).toEqual([])
    await userEvent.click(within(connected).getByRole('button', { name: 'Disconnect' }))
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Disconnect MailerLite?' })).getByRole('button', {
        name: 'Disconnect',
      }),
    )
    expect(await screen.findByTestId('esp-connect-form')).toBeInTheDocument()
    expect(state.rpc.filter((c) => c.name === 'disconnect_esp').map((c) => c.body)).toEqual([{ p_campaign_id: 'c1' }])
  })
})

describe('delivery state per subscriber', () => {
  it('shows Delivered, Queued with the retry reason, Failed with the provider’s message and Retry, or Not sent', async () => {
    const state = page({
      connection: CONNECTION,
      subscribers: [
        subscriber('s1', 'ann@example.com'),
        subscriber('s2', 'bob@example.com'),
        subscriber('s3', 'cat@example.com'),
        subscriber('s4', 'dan@example.com'),
      ],
      deliveries: [
        { id: 'd1', subscription_id: 's1', status: 'delivered', attempts: 1, last_error: null, delivered_at: 'x' },
        {
          id: 'd2',
          subscription_id: 's2',
          status: 'queued',
          attempts: 1,
          last_error: 'Too many requests',
          delivered_at: null,
        },
        {
          id: 'd3',
          subscription_id: 's3',
          status: 'failed',
          attempts: 1,
          last_error: 'The email must be a valid email address.',
          delivered_at: null,
        },
      ],
    })
    renderRoute(PAGE)
    const table = await screen.findByTestId('subscriber-table')
    const rowOf = async (email: string) => within((await within(table).findAllByText(email))[0]!.closest('tr, li')!)
    await waitFor(async () => expect((await rowOf('ann@example.com')).getByText('Delivered')).toBeInTheDocument())
    expect((await rowOf('bob@example.com')).getByText('Queued')).toBeInTheDocument()
    expect((await rowOf('bob@example.com')).getByText('Retrying: Too many requests')).toBeInTheDocument()
    const failed = await rowOf('cat@example.com')
    expect(failed.getByText('Failed')).toBeInTheDocument()
    expect(failed.getByText('The email must be a valid email address.')).toBeInTheDocument()
    expect((await rowOf('dan@example.com')).getByText('Not sent')).toBeInTheDocument()
    await userEvent.click(failed.getByRole('button', { name: 'Retry' }))
    await waitFor(() =>
      expect(state.rpc.filter((c) => c.name === 'retry_esp_delivery').map((c) => c.body)).toEqual([
        { p_delivery_id: 'd3' },
      ]),
    )
  })
  it('names a refunded reader Refunded, says whether they are still in the email tool, and counts them apart (issue 38)', async () => {
    const refunded = (id: string, email: string) => ({
      ...subscriber(id, email),
      status: 'rejected',
      counted: false,
      not_counted_reason: 'refunded',
      reason_label: 'Refunded during screening (fraud or dispute)',
      price: null,
    })
    page({
      connection: CONNECTION,
      subscribers: [
        subscriber('s1', 'ann@example.com'),
        refunded('s2', 'bob@example.com'),
        refunded('s3', 'a.very.long.reader.address@subdomain.example.com'),
      ],
      deliveries: [
        { id: 'd1', subscription_id: 's1', status: 'delivered', attempts: 1, last_error: null, delivered_at: 'x' },
        { id: 'd2', subscription_id: 's2', status: 'delivered', attempts: 1, last_error: null, delivered_at: 'x' },
      ],
    })
    renderRoute(PAGE)
    const table = await screen.findByTestId('subscriber-table')
    const rowOf = async (email: string) => within((await within(table).findAllByText(email))[0]!.closest('tr, li')!)
    const bob = await rowOf('bob@example.com')
    expect(bob.getByText('Refunded')).toBeInTheDocument()
    expect(bob.queryByText('Rejected')).toBeNull()
    expect(bob.getByText('Charge given back during screening')).toBeInTheDocument()
    await waitFor(() =>
      expect(bob.getByTestId('esp-refunded-state')).toHaveTextContent('Still in MailerLite: remove them'),
    )
    const long = await rowOf('a.very.long.reader.address@subdomain.example.com')
    expect(long.getByTestId('esp-refunded-state')).toHaveTextContent('Not in your email tool')
    // The long address breaks after the @ and before the dots, not mid-word.
    expect(long.getAllByTestId('email-address')[0]!.querySelectorAll('wbr')).toHaveLength(7)
    // Confirmed subscribers (not refunded) and the refunded readers beside them, as the database counts them.
    const totals = await screen.findByTestId('subscriber-totals')
    await waitFor(() => expect(totals).toHaveTextContent('Confirmed subscribers2Refunded1'))
  })

  it('offers "Remove from MailerLite" beside a refunded, delivered reader only, asks first, and shows each outcome (issue 38)', async () => {
    const refunded = (id: string, email: string) => ({
      ...subscriber(id, email),
      status: 'rejected',
      counted: false,
      not_counted_reason: 'refunded',
      reason_label: 'Refunded during screening (fraud or dispute)',
      price: null,
    })
    const delivered = (id: string, over: Record<string, unknown> = {}) => ({
      id: `d${id}`,
      subscription_id: `s${id}`,
      status: 'delivered',
      attempts: 1,
      last_error: null,
      delivered_at: '2026-11-01T10:01:00Z',
      removal_status: null,
      removal_error: null,
      removed_at: null,
      ...over,
    })
    const state = page({
      connection: CONNECTION,
      subscribers: [
        subscriber('s1', 'paid@example.com'),
        refunded('s2', 'still@example.com'),
        refunded('s3', 'gone@example.com'),
        refunded('s4', 'refused@example.com'),
        refunded('s5', 'going@example.com'),
        refunded('s6', 'never@example.com'),
      ],
      deliveries: [
        delivered('1'),
        delivered('2'),
        delivered('3', { removal_status: 'removed', removed_at: '2026-11-03T09:30:00Z' }),
        delivered('4', { removal_status: 'failed', removal_error: 'Resource not found.' }),
        delivered('5', { removal_status: 'queued' }),
        delivered('6', { status: 'failed', last_error: 'Invalid email' }),
      ],
    })
    renderRoute(PAGE)
    const table = await screen.findByTestId('subscriber-table')
    const rowOf = async (email: string) => within((await within(table).findAllByText(email))[0]!.closest('tr, li')!)
    const removeButton = /^Remove from MailerLite$/

    const still = await rowOf('still@example.com')
    await waitFor(() => expect(still.getByRole('button', { name: removeButton })).toBeInTheDocument())
    expect((await rowOf('paid@example.com')).queryByRole('button', { name: removeButton })).toBeNull()
    expect((await rowOf('never@example.com')).queryByRole('button', { name: removeButton })).toBeNull()
    expect((await rowOf('never@example.com')).getByTestId('esp-refunded-state')).toHaveTextContent(
      'Not in your email tool: nothing to remove.',
    )

    const gone = await rowOf('gone@example.com')
    expect(gone.getByTestId('esp-refunded-state')).toHaveTextContent(/^Removed from MailerLite on .*2026/)
    expect(gone.queryByRole('button', { name: removeButton })).toBeNull()
    const going = await rowOf('going@example.com')
    expect(going.getByTestId('esp-refunded-state')).toHaveTextContent('Removing from MailerLite…')
    expect(going.queryByRole('button', { name: removeButton })).toBeNull()
    const refused = await rowOf('refused@example.com')
    expect(refused.getByTestId('esp-refunded-state')).toHaveTextContent(
      'MailerLite did not remove them: Resource not found.',
    )
    expect(refused.getByRole('button', { name: removeButton })).toBeInTheDocument()

    await userEvent.click(still.getByRole('button', { name: removeButton }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveTextContent('Remove still@example.com from MailerLite?')
    expect(dialog).toHaveTextContent('They are taken out of the Newsletter readers group')
    expect(state.rpc.some((r) => r.name === 'remove_refunded_from_esp')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: removeButton }))
    await waitFor(() =>
      expect(state.rpc).toContainEqual({ name: 'remove_refunded_from_esp', body: { p_subscription_id: 's2' } }),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('shows what the email tool reported back: Engaged with its counts, Engaged from rates, no opens yet, or nothing before a read', async () => {
    const delivered = (id: string, over: Record<string, unknown>) => ({
      id: `d${id}`,
      subscription_id: `s${id}`,
      status: 'delivered',
      attempts: 1,
      last_error: null,
      delivered_at: '2026-11-01T10:01:00Z',
      engaged: null,
      opens: null,
      clicks: null,
      engagement_checked_at: null,
      counted_engagement: null,
      ...over,
    })
    const read = { engagement_checked_at: '2026-11-02T10:00:00Z' }
    page({
      connection: CONNECTION,
      subscribers: [
        subscriber('s1', 'ann@example.com'),
        subscriber('s2', 'bob@example.com'),
        subscriber('s3', 'cat@example.com'),
        subscriber('s4', 'dan@example.com'),
        subscriber('s5', 'eve@example.com'),
      ],
      deliveries: [
        delivered('1', { ...read, engaged: true, opens: 3, clicks: 1, counted_engagement: true }),
        delivered('2', { ...read, engaged: true, counted_engagement: true }),
        delivered('3', { ...read, engaged: false, opens: 0, clicks: 0, counted_engagement: false }),
        delivered('4', {}),
        // A privacy proxy opened it; the tool cannot tell machines apart, so only clicks count.
        delivered('5', { ...read, engaged: true, opens: 3, clicks: 0, counted_engagement: false }),
      ],
    })
    renderRoute(PAGE)
    const table = await screen.findByTestId('subscriber-table')
    const rowOf = (email: string) => within(within(table).getByText(email).closest('tr')!)
    await waitFor(() => expect(rowOf('ann@example.com').getByTestId('esp-engagement')).toBeInTheDocument())
    expect(rowOf('ann@example.com').getByTestId('esp-engagement')).toHaveTextContent(/^Engaged: 3 opens, 1 click$/)
    expect(rowOf('bob@example.com').getByTestId('esp-engagement')).toHaveTextContent(/^Engaged$/)
    expect(rowOf('cat@example.com').getByTestId('esp-engagement')).toHaveTextContent(/^No opens or clicks yet$/)
    expect(rowOf('dan@example.com').queryByTestId('esp-engagement')).toBeNull()
    expect(rowOf('dan@example.com').getByTestId('esp-delivery-state')).toHaveTextContent(/^Delivered$/)
    expect(rowOf('eve@example.com').getByTestId('esp-engagement')).toHaveTextContent(
      /^Not engaged: 3 opens, 0 clicks: opens alone do not count$/,
    )
  })

  it('opens each subscriber’s evidence row in place: read-back, machine activity and the decision with its date', async () => {
    page()
    const asked: unknown[] = []
    server.use(
      // A read, so by GET (a read replica may answer it): the argument travels in the query string.
      http.get(restUrl('rpc/subscriber_evidence'), ({ request }) => {
        asked.push(Object.fromEntries(new URL(request.url).searchParams))
        return HttpResponse.json({
          status: 'confirmed',
          reasons: ['not_engaged'],
          confirmed_at: '2026-11-01T10:00:00Z',
          delivered_at: '2026-11-01T10:00:05Z',
          opens: 5,
          clicks: 0,
          machine_opens: null,
          machine_clicks: null,
          engaged: false,
          decided_at: '2026-11-15T10:20:00Z',
          decision: 'released',
        })
      }),
    )
    renderRoute(PAGE)
    const open = await screen.findByRole('button', { name: 'Evidence' })
    await userEvent.click(open)
    const evidence = await screen.findByTestId('subscriber-evidence')
    expect(evidence).toHaveTextContent('Opens5')
    expect(evidence).toHaveTextContent('Machine activityNot told apart by the email tool: only clicks count')
    expect(evidence).toHaveTextContent('EngagedNo counted open or click')
    expect(evidence).toHaveTextContent('DecisionReleased, not charged on')
    expect(evidence).toHaveTextContent('WhyNo open or click within the engagement window')
    expect(asked).toEqual([{ p_subscription_id: 's1' }])
  })
})

describe('which newsletter the subscribers page opens on', () => {
  it('opens on the newest submitted newsletter, not a newer draft that cannot have subscribers', async () => {
    page()
    const draft = { ...campaign, id: 'c0', name: 'Untitled draft', status: 'draft', created_at: '2026-11-20T10:00:00Z' }
    server.use(http.get(restUrl('campaigns'), () => HttpResponse.json([draft, campaign])))
    renderRoute(PAGE)
    expect(await screen.findByRole('combobox', { name: 'Newsletter' })).toHaveDisplayValue('Morning Brew')
    expect(await screen.findByText('ann@example.com')).toBeInTheDocument()
  })
})
