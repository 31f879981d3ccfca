import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { authUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'
import { ADVERTISER, authSession, authUser, signedInBackground, storeSession } from '../../testing/auth-fixtures'
import { QR_OPTIONS } from '@/features/account/lib/totp-qr'
import { darkModulesOfSvg, expectedDarkModules, svgOfDataUrl } from './qr-matrix'

const URI = 'otpauth://totp/Growletter:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Growletter'

beforeAll(() => {
  Element.prototype.setPointerCapture ??= () => {}
  Element.prototype.releasePointerCapture ??= () => {}
  Element.prototype.hasPointerCapture ??= () => false
})
afterEach(() => toast.dismiss())

/** Avatar menu → Account → the two-factor section, as a person gets there. */
async function openTwoFactor() {
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Account menu' }))
  await user.click(await screen.findByRole('menuitem', { name: 'Account' }))
  return { user, dialog: await screen.findByRole('region', { name: 'Two-factor sign-in' }) }
}

describe('two-factor sign-in on the account page, reached from the avatar menu', () => {
  it('enrols a TOTP factor: QR code and key, then the first code turns it on', async () => {
    storeSession(ADVERTISER)
    signedInBackground(ADVERTISER)
    let enrolBody: unknown = null
    let verifyBody: unknown = null
    const withFactor = { ...ADVERTISER, factors: [{ id: 'factor-9', status: 'verified' as const }] }
    let enrolled = false
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(enrolled ? withFactor : ADVERTISER))),
      http.post(authUrl('factors'), async ({ request }) => {
        enrolBody = await request.json()
        return HttpResponse.json({
          id: 'factor-9',
          type: 'totp',
          friendly_name: 'Authenticator app',
          totp: {
            qr_code: '<svg xmlns="http://www.w3.org/2000/svg" fill="#000"></svg>',
            secret: 'JBSWY3DPEHPK3PXP',
            uri: URI,
          },
        })
      }),
      http.post(authUrl('factors/factor-9/challenge'), () =>
        HttpResponse.json({ id: 'ch-1', type: 'totp', expires_at: 9999999999 }),
      ),
      http.post(authUrl('factors/factor-9/verify'), async ({ request }) => {
        verifyBody = await request.json()
        enrolled = true
        return HttpResponse.json(authSession(withFactor, 'aal2'))
      }),
    )
    renderRoute('/help')
    const { user, dialog } = await openTwoFactor()
    await user.click(await within(dialog).findByRole('button', { name: 'Set up two-factor sign-in' }))
    const qr = await within(dialog).findByTestId('mfa-qr')
    // A data URL with a raw '#' ends at it (the bug that showed only the alt text): ours is fully encoded.
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,[^#]+$/)
    expect(darkModulesOfSvg(svgOfDataUrl(qr.getAttribute('src')!))).toEqual(
      expectedDarkModules(URI, QR_OPTIONS.margin, QR_OPTIONS.errorCorrectionLevel),
    )
    expect(within(dialog).getByTestId('mfa-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP')
    expect(enrolBody).toMatchObject({ factor_type: 'totp' })
    await user.type(within(dialog).getByLabelText('Code from your app'), '654321')
    await user.click(within(dialog).getByRole('button', { name: 'Turn on two-factor sign-in' }))
    expect(await screen.findByText('Two-factor sign-in is on')).toBeInTheDocument()
    expect(verifyBody).toMatchObject({ challenge_id: 'ch-1', code: '654321' })
  })

  it('turns it off when a verified factor exists', async () => {
    const withFactor = { ...ADVERTISER, factors: [{ id: 'factor-7', status: 'verified' as const }] }
    storeSession(withFactor, 'aal2')
    signedInBackground(ADVERTISER)
    let deleted = false
    server.use(
      http.get(authUrl('user'), () => HttpResponse.json(authUser(deleted ? ADVERTISER : withFactor))),
      http.delete(authUrl('factors/factor-7'), () => {
        deleted = true
        return HttpResponse.json({ id: 'factor-7' })
      }),
    )
    renderRoute('/help')
    const { user, dialog } = await openTwoFactor()
    expect(await within(dialog).findByText('Two-factor sign-in is on.')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor sign-in' }))
    expect(await screen.findByText('Two-factor sign-in turned off')).toBeInTheDocument()
    expect(deleted).toBe(true)
  })
})
