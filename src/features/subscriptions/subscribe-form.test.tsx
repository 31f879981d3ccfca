import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { functionsUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { expectToast } from '../../testing/expect-toast'
import { CAMPAIGNS, campaignsHandler } from '../../testing/newsletter-fixtures'

type SubscribeBody = { email: string; campaignIds: string[]; audienceSourceId?: string; clickId?: string }

function subscribeHandler(answer: (body: SubscribeBody) => Response) {
  const bodies: SubscribeBody[] = []
  server.use(
    campaignsHandler(),
    http.post(functionsUrl('subscribe'), async ({ request }) => {
      const body = (await request.json()) as SubscribeBody
      bodies.push(body)
      return answer(body)
    }),
  )
  return bodies
}

async function pickBothAndSubscribe(email = 'reader@example.com') {
  renderRoute('/newsletters')
  await userEvent.click(await screen.findByLabelText('Select Morning Brew'))
  await userEvent.click(screen.getByLabelText('Select Dev Digest'))
  const panel = screen.getByTestId('subscribe-panel')
  await userEvent.type(within(panel).getByLabelText('Email address'), email)
  await userEvent.click(within(panel).getByRole('button', { name: 'Subscribe to 2 newsletters' }))
  return panel
}

describe('subscribe: several newsletters, one email', () => {
  it('sends one request with both ids and the magic-link attribution, then says to check the inbox', async () => {
    localStorage.setItem('audience_source_id', 'src-1')
    localStorage.setItem('source_name', "Pat's Product Notes")
    localStorage.setItem('source_attribution', JSON.stringify({ sourceId: 'src-1', clickId: 'click-1' }))
    localStorage.setItem('subscribed_newsletters', '"broken"')
    const bodies = subscribeHandler((body) =>
      HttpResponse.json({
        success: true,
        pending: body.campaignIds.map((id) => ({
          campaignId: id,
          newsletterName: CAMPAIGNS.find((c) => c.id === id)!.name,
        })),
      }),
    )
    const panel = await pickBothAndSubscribe()
    expect(await within(panel).findByTestId('subscribe-success')).toHaveTextContent(
      'we sent one email to reader@example.com about Morning Brew, Dev Digest. Tap “Confirm all 2 newsletters” in it, or “Confirm only this one” beside each you want.',
    )
    expect(bodies).toEqual([
      {
        email: 'reader@example.com',
        campaignIds: [CAMPAIGNS[0].id, CAMPAIGNS[1].id],
        audienceSourceId: 'src-1',
        clickId: 'click-1',
      },
    ])
    expect(JSON.parse(localStorage.getItem('subscribed_newsletters')!)).toEqual([CAMPAIGNS[0].id, CAMPAIGNS[1].id])
    expect(screen.getByTestId('source-banner')).toHaveTextContent("Pat's Product Notes")
    await expectToast('Check your inbox', 'We sent an email to reader@example.com.')
  })

  it('sends no attribution when the visitor did not come through a magic link', async () => {
    const bodies = subscribeHandler(() => HttpResponse.json({ success: true, pending: [] }))
    await pickBothAndSubscribe()
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).not.toHaveProperty('audienceSourceId')
    expect(screen.queryByTestId('source-banner')).not.toBeInTheDocument()
  })

  it.each([
    [400, 'Please use a permanent email address'],
    [429, 'Too many attempts. Please try again in a few minutes.'],
  ])('shows the function’s message for a %i next to the field and in a toast', async (status, message) => {
    subscribeHandler(() => HttpResponse.json({ error: message }, { status }))
    const panel = await pickBothAndSubscribe('someone@mailinator.com')
    expect(await within(panel).findByRole('alert')).toHaveTextContent(message)
    await expectToast(`Failed to subscribe: ${message}`)
    expect(localStorage.getItem('subscribed_newsletters')).toBeNull()
  })

  it('checks the email format before calling the function', async () => {
    const bodies = subscribeHandler(() => HttpResponse.json({ success: true, pending: [] }))
    const panel = await pickBothAndSubscribe('not-an-email')
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Please enter a valid email address')
    expect(bodies).toHaveLength(0)
  })

  it('keeps the subscribe button disabled until a newsletter is picked', async () => {
    server.use(campaignsHandler())
    renderRoute('/newsletters')
    await screen.findByLabelText('Select Morning Brew')
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeDisabled()
  })
})
