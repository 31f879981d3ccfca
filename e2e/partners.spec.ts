/**
 * Partner programs (issue 40), by clicking: a new influencer applies with its source from Offers to a new
 * advertiser's newsletter that pays only approved sources; the advertiser, emailed, opens Partners from its menu and
 * approves the source at a price of its own; the next reader through the source's link is charged that price and
 * the influencer earns it minus the 20% fee. Then the advertiser blocks the source: the next reader subscribes and
 * confirms as usual (nothing alarming) and is not counted, reason not_a_partner. The accounts are registered through
 * the UI; the source's and the newsletter's reviews and the deposit are what other specs click through, so they are
 * set up with the service role here.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { apiKeys } from '../embedded-backend/keys'
import { E2E } from './ports'
import { AuthPages, uniqueEmail } from './pages/auth'
import { DevMailbox, verifyLinkIn } from './pages/mailbox'
import { Directory } from './pages/directory'
import { Mailbox, NewslettersPage, confirmationLinks } from './pages/newsletters'
import { readerAddress, readerAgent, service } from './pages/readers'
import { checkPage, settle } from './pages/layout-checks'
import { openFromSidebar } from './pages/visit'

async function serviceCall(request: APIRequestContext, path: string, data: unknown) {
  const { serviceRoleKey } = await apiKeys()
  const response = await request.post(`${E2E.apiUrl}/rest/v1/${path}`, {
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
    data,
  })
  expect(response.ok(), await response.text()).toBe(true)
  return (await response.json()) as unknown
}

/** Registers through the UI and opens the confirmation link; answers the new user's id. */
async function newAccount(page: Page, request: APIRequestContext, role: 'advertiser' | 'publisher', email: string) {
  await new AuthPages(page).register({
    role,
    firstName: 'Pat',
    lastName: 'Partner',
    email,
    password: 'a-long-secret-1',
  })
  await page.goto(verifyLinkIn(await new DevMailbox(request).waitForEmail(email, /Confirm your/i)))
  await expect(page).toHaveURL(new RegExp(`/dashboard/${role}$`))
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return (JSON.parse(localStorage.getItem(key)!) as { user: { id: string } }).user.id
  })
}

/** A reader follows the source's link, picks the newsletter, subscribes and confirms from the email. */
async function readerThrough(
  browser: Browser,
  request: APIRequestContext,
  code: string,
  newsletter: string,
  n: number,
) {
  const email = readerAddress(`partner-reader-${Date.now().toString(36)}-${n}`)
  const context = await browser.newContext({ userAgent: readerAgent(110 + n) })
  const page = await context.newPage()
  await new Directory(page).followMagicLink(code)
  const list = new NewslettersPage(page)
  await list.pick(newsletter)
  await list.subscribe(email)
  const [message] = await new Mailbox(request).waitForMessagesTo(email)
  await page.waitForTimeout(2100) // a person reads the email (confirming within 2 s does not count)
  await page.goto(confirmationLinks(message!)[0]!.replace(/^https?:\/\/[^/]+/, E2E.appUrl))
  // The reader sees the usual confirmation, partner or not.
  await expect(page.getByTestId('confirmation')).toHaveAttribute('data-state', 'success')
  await context.close()
  const [row] = await service(
    request,
    'GET',
    `newsletter_subscriptions?select=id,price,counted,not_counted_reason&email=eq.${encodeURIComponent(email)}`,
  )
  return row!
}

test('an influencer applies from Offers, the advertiser approves at its own price, then blocks the source', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000)
  const stamp = Date.now().toString(36)
  const newsletter = `Partner Post ${stamp}`
  const sourceName = `Partner Source ${stamp}`
  const code = `partner-${stamp}`

  // The influencer, with an approved source.
  const publisherPage = await (await browser.newContext()).newPage()
  const publisherId = await newAccount(publisherPage, request, 'publisher', uniqueEmail('partner-pub'))
  await serviceCall(request, 'audience_sources', {
    publisher_id: publisherId,
    name: sourceName,
    platform: 'newsletter',
    status: 'approved',
    unified_code: code,
  })

  // The advertiser, funded, with a newsletter by approval at 3.00 credits.
  const advertiserEmail = uniqueEmail('partner-adv')
  const advertiserPage = await (await browser.newContext()).newPage()
  const advertiserId = await newAccount(advertiserPage, request, 'advertiser', advertiserEmail)
  await serviceCall(request, 'rpc/credit_deposit', {
    p_user_id: advertiserId,
    p_amount: 100,
    p_reference: `e2e-${stamp}`,
  })
  await serviceCall(request, 'campaigns', {
    advertiser_id: advertiserId,
    name: newsletter,
    price_per_subscriber: 3,
    budget_total: 50,
    status: 'active',
    category: 'business',
    website_url: 'https://partner-post.example',
    partner_mode: 'approval',
  })

  // The influencer applies from Offers, by clicking (a fresh page: the source was made after it loaded).
  await publisherPage.reload()
  await openFromSidebar(publisherPage, '/dashboard/publisher/offers', 'Offers')
  const offer = publisherPage.getByTestId('offer').filter({ hasText: newsletter })
  await expect(offer.getByTestId('offer-partner-mode')).toHaveText('By approval')
  await expect(offer.getByTestId('partner-state')).toContainText('Readers through this link are not paid')
  await offer.getByRole('button', { name: `Apply with ${sourceName}` }).click()
  await offer.getByLabel(`Why ${sourceName} fits ${newsletter} (optional)`).fill('My readers run small businesses')
  await offer.getByRole('button', { name: 'Send application' }).click()
  await expect(offer.getByTestId('partner-state')).toContainText('Applied: waiting for the advertiser')

  // The advertiser is emailed, opens Partners from its menu and approves at 4.00 credits.
  await new DevMailbox(request).waitForEmail(advertiserEmail, /applied to promote/, {
    containing: 'My readers run small businesses',
  })
  await advertiserPage.reload() // the newsletter was listed after the page loaded
  await openFromSidebar(advertiserPage, '/dashboard/advertiser/partners', 'Partners')
  const card = advertiserPage.getByTestId('partner').filter({ hasText: sourceName })
  await expect(card.getByTestId('partner-status')).toHaveText('Applied')
  await expect(card).toContainText('“My readers run small businesses”')
  await card.getByLabel('Its own price (credits, optional)').fill('4')
  await card.getByRole('button', { name: 'Approve' }).click()
  await expect(card.getByTestId('partner-status')).toHaveText('Partner')
  await expect(card.getByTestId('partner-price')).toHaveText(
    'You pay 4.00 credits per subscriber (its own price); the influencer earns 3.20 credits.',
  )

  // The influencer reads the same price on Offers.
  await publisherPage.reload()
  await expect(offer.getByTestId('partner-state')).toHaveText(
    'Partner. Your own price: 4.00 credits per subscriber; you earn 3.20 credits.',
  )

  // Desk and phone (390 px, where the cards stack): nothing scrolls sideways, axe finds nothing serious.
  for (const [p, name] of [
    [advertiserPage, 'partners'],
    [publisherPage, 'offers'],
  ] as const) {
    await settle(p)
    await checkPage(p, true, false)
    await p.setViewportSize({ width: 390, height: 844 })
    await checkPage(p, false, true)
    await p.screenshot({ path: test.info().outputPath(`${name}-phone.png`), fullPage: true })
    await p.setViewportSize({ width: 1280, height: 720 })
  }

  // The next reader is charged 4.00; the influencer earns 3.20.
  const paid = await readerThrough(browser, request, code, newsletter, 1)
  expect([paid.counted, paid.not_counted_reason, Number(paid.price)]).toEqual([true, null, 4])
  const earnings = await service(
    request,
    'GET',
    `wallet_transactions?select=amount,type&subscription_id=eq.${paid.id as string}`,
  )
  expect(earnings.map((t) => [t.type, Number(t.amount)]).sort()).toEqual([
    ['earning', 3.2],
    ['hold', -4],
  ])

  // Blocked: the next reader confirms as usual and is not counted, not_a_partner.
  await card.getByRole('button', { name: 'Block' }).click()
  await expect(card.getByTestId('partner-status')).toHaveText('Blocked')
  const unpaid = await readerThrough(browser, request, code, newsletter, 2)
  expect([unpaid.counted, unpaid.not_counted_reason]).toEqual([false, 'not_a_partner'])
  await publisherPage.reload()
  await expect(offer.getByTestId('partner-state')).toContainText('The advertiser does not work with this source')
  // Its own contexts end with it (Playwright closes only the `page` fixture's): a tab left open lives, and may poll,
  // until the worker ends.
  for (const tab of [publisherPage, advertiserPage]) await tab.context().close()
})
