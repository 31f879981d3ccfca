/**
 * The local Stripe Connect stand-in's onboarding page in a real browser, on a phone's width: axe finds no serious
 * violation, the buttons are reachable, and "Finish onboarding" / "Simulate a rejected account" send the browser to
 * the link's return_url with the account changed. (The publisher's payout screens that open it come with issue 24's
 * next part; here the account and link are made through the stand-in's Stripe API, as create-connect-onboarding will.)
 */
import { expect, test, type Page } from '@playwright/test'
import { seriousViolations } from './pages/axe'
import { E2E } from './ports'

const stripeApi = async (path: string, params: Record<string, string>, method = 'POST') => {
  const res = await fetch(`${E2E.apiUrl}/checkout/v1/${path}`, {
    method,
    headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'POST' ? new URLSearchParams(params) : undefined,
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as Record<string, unknown> & { id: string; url: string }
}

async function openOnboarding(page: Page) {
  const account = await stripeApi('accounts', {
    type: 'express',
    email: 'publisher@growletter.test',
    'capabilities[transfers][requested]': 'true',
  })
  const returnUrl = `${E2E.appUrl}/help?onboarding=${account.id}`
  const link = await stripeApi('account_links', {
    account: account.id,
    type: 'account_onboarding',
    refresh_url: `${E2E.appUrl}/help?refresh=${account.id}`,
    return_url: returnUrl,
  })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(link.url)
  await expect(page.getByRole('heading', { level: 1, name: 'Set up payouts with Growletter' })).toBeVisible()
  return { account, returnUrl }
}

test('the onboarding page passes axe on a phone, and "Finish onboarding" returns with payouts enabled', async ({
  page,
}) => {
  const { account, returnUrl } = await openOnboarding(page)
  expect(await seriousViolations(page)).toEqual([])
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.getByRole('button', { name: 'Finish onboarding' }).click()
  await expect(page).toHaveURL(returnUrl)
  expect(await stripeApi(`accounts/${account.id}`, {}, 'GET')).toMatchObject({
    payouts_enabled: true,
    details_submitted: true,
  })
})

test('"Simulate a rejected account" returns with the account rejected', async ({ page }) => {
  const { account, returnUrl } = await openOnboarding(page)
  await page.getByRole('button', { name: 'Simulate a rejected account' }).click()
  await expect(page).toHaveURL(returnUrl)
  expect(await stripeApi(`accounts/${account.id}`, {}, 'GET')).toMatchObject({
    payouts_enabled: false,
    requirements: { disabled_reason: 'rejected.other' },
  })
})
