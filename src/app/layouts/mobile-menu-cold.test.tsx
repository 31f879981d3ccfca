// A cold first visit on a phone (issue 38): the menu's code is still downloading when the visitor taps the menu
// button and then something on the page that changes the route. The menu must not open over the new page once its
// code arrives (SPEC §2: it closes on route change).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MotionGlobalConfig } from 'framer-motion'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderRoute } from '../../testing/render-route'
import { stubPhoneViewport } from '../../testing/viewport'

let release: () => void = () => undefined
const arrived = new Promise<void>((resolve) => (release = resolve))
vi.mock('@/app/layouts/mobile-navigation', async (importOriginal) => {
  await arrived
  return importOriginal()
})

// The menu's animations end at once, as in mobile-menu.test.tsx: happy-dom rejects a cancelled animation's promise,
// and the menu left open at the end would otherwise be cancelled mid-animation when the test unmounts it.
beforeEach(() => {
  MotionGlobalConfig.skipAnimations = true
})
afterEach(() => {
  MotionGlobalConfig.skipAnimations = false
  vi.unstubAllGlobals()
})

describe('mobile menu on a cold first visit', () => {
  it('stays closed when the route changed while its code was downloading, and opens on the next tap', async () => {
    stubPhoneViewport()
    const user = userEvent.setup()
    const { router } = renderRoute('/about')
    await user.click(await screen.findByRole('button', { name: 'Open menu' }))
    // While the menu's code downloads, the visitor follows a link on the page.
    await router.navigate('/help')
    await waitFor(() => expect(router.state.location.pathname).toBe('/help'))
    release()
    // The downloaded menu mounts closed on the new page …
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open menu' })).not.toHaveAttribute('aria-busy'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    // … and opens on the next tap.
    await user.click(screen.getByRole('button', { name: 'Open menu' }))
    expect(await screen.findByRole('dialog', { name: 'Menu' })).toBeInTheDocument()
  })
})
