import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen } from '@testing-library/react'
import { functionsUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { expectToast } from '../../testing/expect-toast'

const URL_WITH_TOKEN = '/confirm-subscription?token=tok123&email=reader%40example.com'

function verifyHandler(answer: () => Response | Promise<Response>) {
  const calls: { method: string; body: unknown }[] = []
  server.use(
    http.all(functionsUrl('verify-subscription'), async ({ request }) => {
      calls.push({ method: request.method, body: await request.json().catch(() => null) })
      return answer()
    }),
  )
  return calls
}

const answer = (overrides: Record<string, unknown>) =>
  HttpResponse.json({
    success: false,
    alreadyConfirmed: false,
    expired: false,
    newsletterName: null,
    error: null,
    ...overrides,
  })

const state = async (kind: string) => {
  const section = await screen.findByTestId('confirmation')
  await expect.poll(() => section.getAttribute('data-state')).toBe(kind)
  return section
}

describe('/confirm-subscription (SPEC §2, §4, §8)', () => {
  it('shows verifying while the POST runs, with Return to Home', async () => {
    const calls = verifyHandler(() => new Promise<Response>(() => {}))
    renderRoute(URL_WITH_TOKEN)
    expect(await screen.findByText('Verifying your subscription…')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/')
    // The POST reaches the function before the test ends: the functions client loads on first use, and a request
    // still loading it would otherwise land in the next test's handler (a flaky "two calls" there).
    await expect.poll(() => calls).toHaveLength(1)
  })

  it('confirms by POSTing the token and email once, and names the newsletter', async () => {
    const calls = verifyHandler(() => answer({ success: true, newsletterName: 'Morning Brew' }))
    renderRoute(URL_WITH_TOKEN)
    const section = await state('success')
    expect(section).toHaveTextContent('You are now subscribed to Morning Brew.')
    expect(calls).toEqual([{ method: 'POST', body: { token: 'tok123', email: 'reader@example.com' } }])
    await expectToast('Subscription confirmed', 'Welcome to Morning Brew!')
  })

  it('already confirmed: the info toast and state', async () => {
    verifyHandler(() => answer({ success: true, alreadyConfirmed: true, newsletterName: 'Morning Brew' }))
    renderRoute(URL_WITH_TOKEN)
    expect(await state('already-confirmed')).toHaveTextContent(
      'Your subscription to Morning Brew was already confirmed.',
    )
    await expectToast('Already confirmed')
  })

  it('expired, even when the function answers with an error status', async () => {
    verifyHandler(() => HttpResponse.json({ success: false, expired: true, error: 'Token expired' }, { status: 400 }))
    renderRoute(URL_WITH_TOKEN)
    const section = await state('expired')
    expect(section).toHaveTextContent('Your confirmation link has expired.')
    expect(section).toHaveTextContent('Please subscribe again to receive a new confirmation link.')
    await expectToast('Link expired', 'Your confirmation link has expired.')
  })

  it("a refused token: 'Verification failed' with the details", async () => {
    verifyHandler(() =>
      HttpResponse.json({ success: false, error: 'This confirmation link is not valid' }, { status: 400 }),
    )
    renderRoute(URL_WITH_TOKEN)
    const section = await state('error')
    expect(section).toHaveTextContent('There was an error verifying your subscription.')
    expect(section).toHaveTextContent('This confirmation link is not valid')
    await expectToast('Verification failed', 'This confirmation link is not valid')
  })

  it("an unexpected failure: the 'Verification error' toast", async () => {
    verifyHandler(() => new HttpResponse('upstream exploded', { status: 500 }))
    renderRoute(URL_WITH_TOKEN)
    expect(await state('error')).toHaveTextContent('There was an error verifying your subscription.')
    await expectToast('Verification error')
  })

  it('no token: the invalid-link text, the toast, and no call', async () => {
    const calls = verifyHandler(() => answer({ success: true }))
    renderRoute('/confirm-subscription?email=reader%40example.com')
    expect(await state('error')).toHaveTextContent('Invalid confirmation link. No token provided.')
    await expectToast('Invalid confirmation link', 'Invalid confirmation link. No token provided.')
    expect(calls).toHaveLength(0)
  })
})
