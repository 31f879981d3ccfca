import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { ADVERTISER, postgrestError, signInAs } from '../../testing/signed-in-fixtures'

// The free-text values are pasted (click, then paste): what these tests check is what the form does with a value,
// not keystrokes, and typing them one key at a time re-rendered the whole form per character (97 keystrokes a fill,
// ~0.4 CPU-seconds a test). The price is typed: its guidance answers as it is typed.
async function fillValidForm(user: ReturnType<typeof userEvent.setup>, overrides: { price?: string } = {}) {
  await user.click(await screen.findByLabelText('Newsletter name'))
  await user.paste('Morning Brew')
  await user.click(screen.getByLabelText('Description'))
  await user.paste('Business news in five minutes.')
  await user.click(screen.getByLabelText('Image URL'))
  await user.paste('https://example.com/brew.png')
  await user.click(screen.getByLabelText('Website URL'))
  await user.paste('https://morningbrew.example')
  await user.selectOptions(screen.getByLabelText('Category'), 'Business')
  await user.type(screen.getByLabelText('Price per subscriber (credits)'), overrides.price ?? '2.50')
  await user.type(screen.getByLabelText('Budget (credits)'), '100')
}

describe('submit newsletter', () => {
  it('shows each problem next to its field and in a toast, and sends nothing', async () => {
    signInAs('advertiser')
    let inserted = false
    server.use(
      http.post(restUrl('campaigns'), () => {
        inserted = true
        return HttpResponse.json([], { status: 201 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/submit-newsletter')
    await user.type(await screen.findByLabelText('Newsletter name'), 'A')
    await user.type(screen.getByLabelText('Website URL'), 'morningbrew.example')
    await user.type(screen.getByLabelText('Price per subscriber (credits)'), '60')
    await user.click(screen.getByRole('button', { name: 'Submit for review' }))

    expect(await screen.findByText('Please fix the highlighted fields')).toBeInTheDocument()
    expect(screen.getByText('Name must be at least 2 characters')).toBeInTheDocument()
    expect(screen.getByText('Website URL must start with http:// or https://')).toBeInTheDocument()
    expect(screen.getByLabelText('Category')).toHaveAccessibleDescription('Choose a category')
    expect(screen.getByText('Price per subscriber must be at most 50.00 credits')).toBeInTheDocument()
    expect(screen.getByText('Enter a budget')).toBeInTheDocument()
    expect(screen.getByLabelText('Newsletter name')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Newsletter name')).toHaveAccessibleDescription('Name must be at least 2 characters')
    expect(inserted).toBe(false)
  })

  it('refuses a price below 0.50 credits', async () => {
    signInAs('advertiser')
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/submit-newsletter')
    await fillValidForm(user, { price: '0.4' })
    await user.click(screen.getByRole('button', { name: 'Submit for review' }))
    expect(await screen.findByText('Price per subscriber must be at least 0.50 credits')).toBeInTheDocument()
  })

  it('submits a pending_review campaign, then returns to the overview with a toast', async () => {
    signInAs('advertiser')
    let body: Record<string, unknown> | null = null
    server.use(
      http.post(restUrl('campaigns'), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ id: 'new-1', name: 'Morning Brew', status: 'pending_review' }, { status: 201 })
      }),
      http.get(restUrl('wallets'), () => HttpResponse.json([{ balance: 10, held: 0, available: 10 }])),
      http.get(restUrl('campaigns'), () => HttpResponse.json([])),
    )
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/advertiser/submit-newsletter')
    await fillValidForm(user)
    // Open to every approved source unless the advertiser picks approval (campaigns.partner_mode).
    expect(screen.getByLabelText('Who may promote it')).toHaveValue('open')
    await user.selectOptions(screen.getByLabelText('Who may promote it'), 'By approval')
    // What the newsletter's page will tell visitors (all optional).
    await user.click(screen.getByLabelText('Sample issue link'))
    await user.paste('https://morningbrew.example/issues/1')
    await user.selectOptions(screen.getByLabelText('How often it goes out'), 'Several times a week')
    await user.type(screen.getByLabelText('Audience size (readers)'), '12,500')
    await user.click(screen.getByLabelText('Who it is for'))
    await user.paste('Busy people who want the business news fast')
    await user.click(screen.getByRole('button', { name: 'Submit for review' }))

    expect(await screen.findByText('Morning Brew was submitted for review')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/advertiser'))
    expect(body).toEqual({
      advertiser_id: ADVERTISER.id,
      name: 'Morning Brew',
      description: 'Business news in five minutes.',
      image_url: 'https://example.com/brew.png',
      category: 'business',
      website_url: 'https://morningbrew.example',
      price_per_subscriber: 2.5,
      budget_total: 100,
      partner_mode: 'approval',
      sample_issue_url: 'https://morningbrew.example/issues/1',
      frequency: 'several_a_week',
      audience_size: 12500,
      audience_line: 'Busy people who want the business news fast',
      status: 'pending_review',
    })
  })

  it("refuses a page's facts the database would refuse, each in a sentence next to its field", async () => {
    signInAs('advertiser')
    let inserted = false
    server.use(
      http.post(restUrl('campaigns'), () => {
        inserted = true
        return HttpResponse.json([], { status: 201 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/advertiser/submit-newsletter')
    await fillValidForm(user)
    await user.click(screen.getByLabelText('Sample issue link'))
    await user.paste('http://morningbrew.example/issues/1')
    await user.type(screen.getByLabelText('Audience size (readers)'), 'about 5k')
    await user.click(screen.getByLabelText('Who it is for'))
    await user.paste('x'.repeat(161))
    await user.click(screen.getByRole('button', { name: 'Submit for review' }))

    expect(await screen.findByText('Keep who it is for to 160 characters or fewer')).toBeInTheDocument()
    expect(screen.getByLabelText('Sample issue link')).toHaveAccessibleDescription(
      'A past issue readers can open, starting with https:// Sample issue link must be a full address starting with https://',
    )
    expect(screen.getByText('Audience size must be a whole number of readers, such as 12000')).toBeInTheDocument()
    expect(screen.getByLabelText('Who it is for')).toHaveAttribute('aria-invalid', 'true')
    expect(inserted).toBe(false)
  })

  it("shows the database's own message when it refuses the campaign", async () => {
    signInAs('advertiser')
    const message = 'new row violates row-level security policy for table "campaigns"'
    server.use(http.post(restUrl('campaigns'), () => postgrestError(403, message, '42501')))
    const user = userEvent.setup()
    const { router } = renderRoute('/dashboard/advertiser/submit-newsletter')
    await fillValidForm(user)
    await user.click(screen.getByRole('button', { name: 'Submit for review' }))

    expect(await screen.findByTestId('server-error')).toHaveTextContent(message)
    expect(await screen.findByText(`Failed to submit the newsletter: ${message}`)).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard/advertiser/submit-newsletter')
  })
})
