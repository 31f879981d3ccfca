import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { functionsUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'

const URL_WITH_TOKEN = '/decline-subscription?token=tok123&email=reader%40example.com'

function declineHandler(answer: () => Response | Promise<Response>) {
  const calls: { method: string; body: unknown }[] = []
  server.use(
    http.all(functionsUrl('decline-subscription'), async ({ request }) => {
      calls.push({ method: request.method, body: await request.json().catch(() => null) })
      return answer()
    }),
  )
  return calls
}

const answer = (overrides: Record<string, unknown>) =>
  HttpResponse.json({ success: true, declined: [], alreadyConfirmed: [], error: null, ...overrides })

const state = async (kind: string) => {
  const section = await screen.findByTestId('decline')
  await expect.poll(() => section.getAttribute('data-state')).toBe(kind)
  return section
}

async function clickDecline() {
  await userEvent.click(await screen.findByRole('button', { name: 'Decline' }))
}

describe('/decline-subscription', () => {
  it('asks first and sends nothing until the button is pressed (a mail scanner declines nothing)', async () => {
    const calls = declineHandler(() => answer({ declined: ['Morning Brew'] }))
    renderRoute(URL_WITH_TOKEN)
    const section = await state('ready')
    expect(section).toHaveTextContent('Decline this subscription?')
    expect(section).toHaveTextContent('nobody is charged for your address')
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
    expect(calls).toHaveLength(0)
  })

  it('shows declining while the POST runs, with the button disabled', async () => {
    const calls = declineHandler(() => new Promise<Response>(() => {}))
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    await state('declining')
    expect(screen.getByRole('button', { name: 'Decline' })).toBeDisabled()
    // The request reaches the function before the test ends (the functions client loads on first use), so it
    // cannot land in the next test's handler.
    await expect.poll(() => calls).toHaveLength(1)
  })

  it('declines by POSTing the token and email once, and names the newsletter', async () => {
    const calls = declineHandler(() => answer({ declined: ['Morning Brew'] }))
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    const section = await state('declined')
    expect(section).toHaveTextContent('Subscription declined')
    expect(section).toHaveTextContent(
      'You are not subscribed to Morning Brew. Nothing more will be sent to you about it, and nobody was charged.',
    )
    expect(calls).toEqual([{ method: 'POST', body: { token: 'tok123', email: 'reader@example.com' } }])
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeInTheDocument()
  })

  it('a "decline all" link that meets a confirmed newsletter says which ones stay', async () => {
    declineHandler(() =>
      answer({ declined: ['Morning Brew', 'Design Dispatch'], alreadyConfirmed: ['The Frontend Brief'] }),
    )
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    const section = await state('declined')
    expect(section).toHaveTextContent('You are not subscribed to Morning Brew and Design Dispatch.')
    expect(section).toHaveTextContent(
      'The Frontend Brief was already confirmed and stays: to stop it, use the unsubscribe link in its emails.',
    )
  })

  it('already confirmed: cannot be declined, and says how to stop it', async () => {
    declineHandler(() => answer({ alreadyConfirmed: ['Morning Brew'] }))
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    const section = await state('already-confirmed')
    expect(section).toHaveTextContent(
      'Your subscription to Morning Brew was confirmed, so it can no longer be declined.',
    )
    expect(section).toHaveTextContent('use the unsubscribe link at the bottom of its emails')
  })

  it("a refused link: the function's sentence, and no button to try again", async () => {
    declineHandler(() => answer({ success: false, error: 'This link is not valid.' }))
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    const section = await state('error')
    expect(section).toHaveTextContent('Could not decline')
    expect(section).toHaveTextContent('This link is not valid.')
    expect(screen.getByRole('alert')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })

  it('a 400 with a readable body is shown as that sentence', async () => {
    declineHandler(() => HttpResponse.json({ success: false, error: 'This link is not valid.' }, { status: 400 }))
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    expect(await state('error')).toHaveTextContent('This link is not valid.')
  })

  it('an unreadable failure: says so and offers to try again, which can succeed', async () => {
    let fail = true
    const calls = declineHandler(() =>
      fail ? new HttpResponse('upstream exploded', { status: 500 }) : answer({ declined: ['Morning Brew'] }),
    )
    renderRoute(URL_WITH_TOKEN)
    await clickDecline()
    expect(await state('error')).toHaveTextContent(
      'We could not reach Growletter. Check your connection and try again.',
    )
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await state('declined')).toHaveTextContent('You are not subscribed to Morning Brew.')
    expect(calls).toHaveLength(2)
  })

  it('no token: says the link is incomplete, with no button and no call', async () => {
    const calls = declineHandler(() => answer({ declined: ['Morning Brew'] }))
    renderRoute('/decline-subscription?email=reader%40example.com')
    expect(await state('error')).toHaveTextContent(
      'This link is incomplete: it has no token. Open the link from the email again.',
    )
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })

  it('no email: says the link is incomplete, with no button and no call', async () => {
    const calls = declineHandler(() => answer({ declined: ['Morning Brew'] }))
    renderRoute('/decline-subscription?token=tok123')
    expect(await state('error')).toHaveTextContent(
      'This link is incomplete: it has no email address. Open the link from the email again.',
    )
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })

  it('has its own tab title', async () => {
    declineHandler(() => answer({}))
    renderRoute(URL_WITH_TOKEN)
    await state('ready')
    await expect.poll(() => document.title).toMatch(/^Decline a subscription/)
  })
})
