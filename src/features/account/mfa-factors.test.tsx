// Issue 21: the account page shows every factor with its state, so a factor planted by someone with the password
// cannot hide, and one that is not verified can be removed there; the devices section says truthfully what
// signing out other devices does.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { ADVERTISER, authUser, signedInBackground, storeSession } from '../../testing/auth-fixtures'

beforeAll(() => {
  Element.prototype.setPointerCapture ??= () => {}
  Element.prototype.releasePointerCapture ??= () => {}
  Element.prototype.hasPointerCapture ??= () => false
})
afterEach(() => toast.dismiss())

const OWN = { id: 'factor-own', status: 'verified' as const, friendly_name: 'My phone' }
const PLANTED = { id: 'factor-planted', status: 'unverified' as const, friendly_name: 'Work phone' }

/** Avatar menu → Account → a section of the page, as a person gets there. */
async function openSection(name: string) {
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Account menu' }))
  await user.click(await screen.findByRole('menuitem', { name: 'Account' }))
  return { user, section: await screen.findByRole('region', { name }) }
}

describe('factors on the account page', () => {
  it('lists every factor with its state and removes one that is not verified', async () => {
    const withBoth = { ...ADVERTISER, factors: [OWN, PLANTED] }
    storeSession(withBoth, 'aal2')
    signedInBackground(withBoth)
    const deleted: string[] = []
    server.use(
      http.get(authUrl('user'), () =>
        HttpResponse.json(authUser({ ...withBoth, factors: deleted.length ? [OWN] : [OWN, PLANTED] })),
      ),
      http.delete(authUrl('factors/:id'), ({ params }) => {
        deleted.push(String(params.id))
        return HttpResponse.json({ id: params.id })
      }),
    )
    renderRoute('/help')
    const { user, section } = await openSection('Two-factor sign-in')
    const list = await within(section).findByRole('list', { name: 'Authenticators on your account' })
    const own = within(list).getByRole('listitem', { name: 'My phone' })
    const planted = within(list).getByRole('listitem', { name: 'Work phone' })
    expect(within(own).getByText('Verified')).toBeInTheDocument()
    expect(within(own).queryByRole('button')).toBeNull()
    expect(within(planted).getByText('Not verified')).toBeInTheDocument()
    expect(within(section).getByTestId('unverified-factor-note')).toHaveTextContent(
      'If you did not start setting it up, someone may know your password — remove it and change your password.',
    )
    expect(within(section).getByText('Two-factor sign-in is on.')).toBeInTheDocument()

    await user.click(within(planted).getByRole('button', { name: 'Remove Work phone (not verified)' }))
    expect(await screen.findByText('Unfinished authenticator removed')).toBeInTheDocument()
    expect(deleted).toEqual(['factor-planted'])
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Work phone' })).toBeNull())
    expect(within(list).getByRole('listitem', { name: 'My phone' })).toBeInTheDocument()
    expect(within(section).queryByTestId('unverified-factor-note')).toBeNull()
  })

  it('shows an unverified factor on an account without two-factor too, and reports a refused removal', async () => {
    const withPlant = { ...ADVERTISER, factors: [PLANTED] }
    storeSession(withPlant)
    signedInBackground(withPlant)
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(withPlant))),
      http.delete(authUrl('factors/:id'), () =>
        HttpResponse.json(
          { code: 403, error_code: 'session_not_found', msg: 'Session from session_id claim in JWT does not exist' },
          { status: 403 },
        ),
      ),
    )
    renderRoute('/help')
    const { user, section } = await openSection('Two-factor sign-in')
    const planted = await within(section).findByRole('listitem', { name: 'Work phone' })
    expect(within(planted).getByText('Not verified')).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument()
    await user.click(within(planted).getByRole('button', { name: 'Remove Work phone (not verified)' }))
    expect(await screen.findByText(/^Failed to remove the authenticator: /)).toBeInTheDocument()
    expect(within(section).getByRole('listitem', { name: 'Work phone' })).toBeInTheDocument()
  })

  it('says what signing out other devices does, before doing it', async () => {
    storeSession(ADVERTISER)
    signedInBackground(ADVERTISER)
    server.use(http.get(authUrl('user'), () => HttpResponse.json(authUser(ADVERTISER))))
    renderRoute('/help')
    const { user, section } = await openSection('Devices')
    expect(section).toHaveTextContent('Changing your password does the same.')
    await user.click(within(section).getByRole('button', { name: 'Sign out of other devices' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of every other device?' })
    expect(within(dialog).getByTestId('sign-out-effects')).toHaveTextContent(
      'At once, a stolen or forgotten session can no longer move money (such as requesting a payout), use admin tools, renew itself or change your account.',
    )
    expect(within(dialog).getByTestId('sign-out-effects')).toHaveTextContent(
      'Pages already open on another device may still show your data for up to an hour, until their sign-in token expires.',
    )
  })
})
