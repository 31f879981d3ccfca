import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { MotionGlobalConfig } from 'framer-motion'
import { toast } from 'sonner'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderRoute, storeTestSession } from '../testing/render-route'
import { ADVERTISER, signedInBackground } from '../testing/auth-fixtures'
import { isMobileUserAgent } from '@/app/layouts/use-is-mobile'
import { BACKDROP_FADE, MENU_SPRING } from '@/components/mobile-menu'
import { stubPhoneViewport } from '../testing/viewport'

beforeAll(() => {
  // The spring and fade are asserted below; the test DOM paints no frames to run them on.
  MotionGlobalConfig.skipAnimations = true
})
afterAll(() => {
  MotionGlobalConfig.skipAnimations = false
})
afterEach(() => {
  vi.unstubAllGlobals()
  toast.dismiss()
})

async function openMenu() {
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Open menu' }))
  return { user, dialog: await screen.findByRole('dialog', { name: 'Menu' }) }
}

describe('mobile menu', () => {
  it('uses the SPEC §9 spring and backdrop fade', () => {
    expect(MENU_SPRING).toEqual({ type: 'spring', damping: 25, stiffness: 300 })
    expect(BACKDROP_FADE).toEqual({ duration: 0.2 })
  })

  it('counts phones and tablets as mobile whatever their width', () => {
    expect(isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true)
    expect(isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(true)
    expect(isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0')).toBe(false)
  })

  it('replaces Log in / Sign Up with a labelled menu button under 768 px', async () => {
    stubPhoneViewport()
    renderRoute('/about')
    expect(await screen.findByRole('button', { name: 'Open menu' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument()
  })

  it('shows the navigation with the current route highlighted, and Log in / Sign Up at the bottom', async () => {
    stubPhoneViewport()
    renderRoute('/about')
    const { dialog } = await openMenu()
    expect(within(dialog).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page')
    expect(within(dialog).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')
    expect(within(dialog).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    expect(within(dialog).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register')
    // Contact, in the desktop footer, is in the phone's menu too (issue 38).
    expect(within(dialog).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact')
  })

  it('traps focus inside and closes on Escape, giving focus back to the button', async () => {
    stubPhoneViewport()
    renderRoute('/about')
    const { user, dialog } = await openMenu()
    expect(dialog).toContainElement(document.activeElement as HTMLElement)
    for (let step = 0; step < 12; step += 1) {
      await user.tab()
      expect(dialog).toContainElement(document.activeElement as HTMLElement)
    }
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus()
  })

  it('closes when the route changes', async () => {
    stubPhoneViewport()
    const { router } = renderRoute('/about')
    const { user, dialog } = await openMenu()
    await user.click(within(dialog).getByRole('link', { name: 'Help' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('closes on a backdrop tap', async () => {
    stubPhoneViewport()
    renderRoute('/about')
    const { user } = await openMenu()
    await user.click(screen.getByTestId('mobile-menu-backdrop'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('shows a signed-in user their block and Log out instead', async () => {
    stubPhoneViewport()
    storeTestSession({ ...ADVERTISER, userType: 'advertiser' })
    signedInBackground(ADVERTISER)
    renderRoute('/about')
    const { dialog } = await openMenu()
    // The session resolves after the menu can already open: wait for the signed-in block.
    const block = await within(dialog).findByTestId('mobile-user-block')
    expect(block).toHaveTextContent(ADVERTISER.email)
    expect(within(block).getByRole('button', { name: 'Log out' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument()
  })
})
