import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { ADVERTISER, authUser, signedInBackground, storeSession } from '../../testing/auth-fixtures'

beforeAll(() => {
  Element.prototype.setPointerCapture ??= () => {}
  Element.prototype.releasePointerCapture ??= () => {}
  Element.prototype.hasPointerCapture ??= () => false
})
afterEach(() => toast.dismiss())

function signedIn() {
  storeSession(ADVERTISER)
  signedInBackground(ADVERTISER)
  server.use(http.get(authUrl('factors'), () => HttpResponse.json([])))
}

describe('/dashboard/account', () => {
  it('saves the name in the profile and in the account metadata', async () => {
    signedIn()
    let profileBody: unknown = null
    let userBody: unknown = null
    server.use(
      http.patch(restUrl('profiles'), async ({ request }) => {
        profileBody = await request.json()
        return new HttpResponse(null, { status: 204 })
      }),
      http.put(authUrl('user'), async ({ request }) => {
        userBody = await request.json()
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/account')
    const section = await screen.findByRole('region', { name: 'Name' })
    await user.clear(within(section).getByLabelText('First name'))
    await user.click(within(section).getByRole('button', { name: 'Save name' }))
    expect(await within(section).findByText('Enter your first name.')).toBeInTheDocument()
    // Values pasted (click, then paste), not typed key by key, here and below: the tests are about what the forms do with them.
    await user.click(within(section).getByLabelText('First name'))
    await user.paste(' Ada ')
    await user.click(within(section).getByLabelText('Last name'))
    await user.paste('Lovelace')
    await user.click(within(section).getByRole('button', { name: 'Save name' }))
    expect(await screen.findByText('Your name was saved')).toBeInTheDocument()
    expect(profileBody).toEqual({ first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' })
    expect(userBody).toMatchObject({ data: { full_name: 'Ada Lovelace' } })
    expect(document.title).toBe('Account · Growletter')
  })

  it('asks the new address to confirm an email change, and refuses the current one', async () => {
    signedIn()
    let body: unknown = null
    server.use(
      http.put(authUrl('user'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/account')
    const section = await screen.findByRole('region', { name: 'Email address' })
    await user.click(within(section).getByLabelText('New email address'))
    await user.paste(ADVERTISER.email)
    await user.click(within(section).getByRole('button', { name: 'Change email' }))
    expect(await within(section).findByText('That is already your email address.')).toBeInTheDocument()
    await user.clear(within(section).getByLabelText('New email address'))
    await user.click(within(section).getByLabelText('New email address'))
    await user.paste('ada@new.example.com')
    await user.click(within(section).getByRole('button', { name: 'Change email' }))
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Check your email: follow the link we sent to ada@new.example.com',
    )
    expect(body).toMatchObject({ email: 'ada@new.example.com' })
  })

  it('changes the password only when both entries match', async () => {
    signedIn()
    const bodies: unknown[] = []
    server.use(
      http.put(authUrl('user'), async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/account')
    const section = await screen.findByRole('region', { name: 'Password' })
    await user.click(within(section).getByLabelText('New password'))
    await user.paste('correct-horse')
    await user.click(within(section).getByLabelText('Repeat the new password'))
    await user.paste('correct-horsE')
    await user.click(within(section).getByRole('button', { name: 'Change password' }))
    expect(await within(section).findByText('The passwords do not match.')).toBeInTheDocument()
    expect(bodies).toEqual([])
    await user.clear(within(section).getByLabelText('Repeat the new password'))
    await user.click(within(section).getByLabelText('Repeat the new password'))
    await user.paste('correct-horse')
    await user.click(within(section).getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('Your password was changed')).toBeInTheDocument()
    expect(bodies).toHaveLength(1)
    expect(bodies[0]).toMatchObject({ password: 'correct-horse' })
  })

  it('refuses a common or leaked password before sending, with the sentence saying what to do', async () => {
    signedIn()
    const bodies: unknown[] = []
    server.use(
      http.put(authUrl('user'), async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json(authUser(ADVERTISER))
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/account')
    const section = await screen.findByRole('region', { name: 'Password' })
    expect(section).toHaveTextContent('At least 8 characters, not a common or leaked password.')
    await user.click(within(section).getByLabelText('New password'))
    await user.paste('letmein123')
    await user.click(within(section).getByLabelText('Repeat the new password'))
    await user.paste('letmein123')
    await user.click(within(section).getByRole('button', { name: 'Change password' }))
    expect(
      await within(section).findByText('This password appears in lists of leaked passwords. Choose another.'),
    ).toBeInTheDocument()
    expect(bodies).toEqual([])
  })

  it('signs out of the other devices after a confirmation, keeping this one', async () => {
    signedIn()
    const scopes: (string | null)[] = []
    server.use(
      http.post(authUrl('logout'), ({ request }) => {
        scopes.push(new URL(request.url).searchParams.get('scope'))
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const user = userEvent.setup()
    renderRoute('/dashboard/account')
    const section = await screen.findByRole('region', { name: 'Devices' })
    await user.click(within(section).getByRole('button', { name: 'Sign out of other devices' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of every other device?' })
    expect(scopes).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Sign out other devices' }))
    expect(await screen.findByText('Signed out of every other device')).toBeInTheDocument()
    await waitFor(() => expect(scopes).toEqual(['others']))
  })
})
