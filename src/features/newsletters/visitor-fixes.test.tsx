// Issue 23 point 8, the visitor's side of the newsletter list: the phone's sticky bar submits the form once an
// address is typed (before that it takes the reader to the field); a failed load is a sentence, never
// "TypeError: Failed to fetch"; a newsletter this browser confirmed reads "Subscribed", not "Check your email";
// and opening a confirmation link is what teaches the list.
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { functionsUrl, restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { CAMPAIGNS, campaignsHandler } from '../../testing/newsletter-fixtures'

const [BREW, DIGEST] = CAMPAIGNS

describe('newsletter list: visitor fixes', () => {
  it('the sticky bar submits the form once an address is typed, and before that only focuses the field', async () => {
    const bodies: { email: string; campaignIds: string[] }[] = []
    server.use(
      campaignsHandler(),
      http.post(functionsUrl('subscribe'), async ({ request }) => {
        const body = (await request.json()) as { email: string; campaignIds: string[] }
        bodies.push(body)
        return HttpResponse.json({
          success: true,
          pending: body.campaignIds.map((id) => ({ campaignId: id, newsletterName: 'Morning Brew' })),
        })
      }),
    )
    renderRoute('/newsletters')
    await userEvent.click(await screen.findByLabelText('Select Morning Brew'))
    const bar = screen.getByTestId('subscribe-bar')
    await userEvent.click(within(bar).getByRole('button', { name: 'Subscribe to 1 newsletter' }))
    const email = within(screen.getByTestId('subscribe-panel')).getByLabelText('Email address')
    expect(email).toHaveFocus()
    expect(bodies).toHaveLength(0)

    await userEvent.type(email, 'reader@example.com')
    await userEvent.click(within(bar).getByRole('button', { name: 'Subscribe to 1 newsletter' }))
    await waitFor(() =>
      expect(bodies).toEqual([expect.objectContaining({ email: 'reader@example.com', campaignIds: [BREW!.id] })]),
    )
    expect(await screen.findByTestId('subscribe-success')).toHaveTextContent('Check your inbox')
  })

  it('says in a sentence when the list cannot load, never the browser’s error', async () => {
    // The words the browser gives a failed fetch, as the client reports them: never shown to a visitor.
    server.use(
      http.get(restUrl('campaigns'), () =>
        HttpResponse.json(
          { message: 'TypeError: Failed to fetch', code: '', details: null, hint: null },
          { status: 500 },
        ),
      ),
    )
    renderRoute('/newsletters')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent("We couldn't load newsletters. Try again.")
    expect(alert).not.toHaveTextContent(/TypeError|Failed to fetch/)
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('a newsletter this browser confirmed reads "Subscribed"; one only asked for reads "Check your email"', async () => {
    localStorage.setItem('subscribed_newsletters', JSON.stringify([BREW!.id, DIGEST!.id]))
    localStorage.setItem('confirmed_newsletters', JSON.stringify([BREW!.id]))
    server.use(campaignsHandler())
    renderRoute('/newsletters')
    const brew = (await screen.findByLabelText('Select Morning Brew')).closest('article')!
    const digest = screen.getByLabelText('Select Dev Digest').closest('article')!
    expect(within(brew).getByTestId('confirmed-subscription')).toHaveTextContent('Subscribed')
    expect(within(brew).queryByTestId('check-your-email')).toBeNull()
    expect(within(digest).getByTestId('check-your-email')).toHaveTextContent('Check your email')
  })

  it('opening a confirmation link remembers every newsletter it confirmed in this browser', async () => {
    server.use(
      http.post(functionsUrl('verify-subscription'), () =>
        HttpResponse.json({
          success: true,
          alreadyConfirmed: false,
          expired: false,
          newsletterName: 'Morning Brew',
          newsletterId: BREW!.id,
          // A "confirm all" link confirmed both newsletters of the request.
          newsletterIds: [BREW!.id, DIGEST!.id],
          error: null,
        }),
      ),
    )
    renderRoute('/confirm-subscription?token=tok123&email=reader%40example.com')
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('confirmed_newsletters') ?? '[]')).toEqual([BREW!.id, DIGEST!.id]),
    )
    expect(localStorage.getItem('subscribed_newsletters')).toBeNull()
  })
})
