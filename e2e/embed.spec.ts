/**
 * Recommendations wherever a reader is (issue 41), as readers and a publisher meet them:
 * - the Embed page's snippet (the frame in its room, then embed.js) on a plain page of another origin whose CSP allows
 *   only the script and the frame: nothing on the host page moves, the reader subscribes in the frame, confirms, and
 *   is the source's paid subscriber through the embed; the publisher finds that snippet and the embed's figures on
 *   the Embed page; the older script-only line, already on sites, still shows the offers;
 * - a link opened in one browser identity (an in-app browser) and finished in another: counted with the link's click
 *   token, `no_click` without it;
 * - `/earn/{code}?email=…` from a publisher's newsletter: fetching it (a mail scanner) creates nothing; the page has
 *   the address filled in and one tap on Subscribe creates the pending subscription.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test'
import { seriousViolations } from './pages/axe'
import { E2E } from './ports'
import { logInAs } from './pages/advertiser'
import { Directory } from './pages/directory'
import { Mailbox, NewslettersPage, confirmationLinks } from './pages/newsletters'
import { DEMO_PUBLISHER, readerAddress, readerAgent, service } from './pages/readers'
import { embedSnippet } from '../src/embed/room'

const APPROVED_ID = '10000000-0000-4000-a000-000000000001'
const NEWSLETTER = 'The Frontend Brief'

const OLD_SNIPPET = `<script async src="${E2E.appUrl}/embed.js" data-source="demo-approved"></script>`
let host: Server
let hostUrl = ''
/** The Embed page's snippet for the source now (its room from how many newsletters the embed shows). */
let snippet = ''

test.beforeAll(async () => {
  // A publisher's own site: another origin, a CSP that allows the script and the frame and nothing else. /thanks has
  // the Embed page's snippet, /old the script-only line pasted on sites before it.
  host = createServer((req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src ${E2E.appUrl}/embed.js; frame-src ${E2E.appUrl}`,
    })
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks for subscribing</title></head><body>' +
        '<h1>Thanks for subscribing!</h1><p>While you are here, our friends write these:</p>' +
        (req.url === '/old' ? OLD_SNIPPET : snippet) +
        '<p id="after">The rest of the page.</p></body></html>',
    )
  })
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve))
})

type Row = {
  audience_source_id: string | null
  counted: boolean
  not_counted_reason: string | null
  channel: string | null
  click_token_used: boolean
}

async function subscriptionOf(request: APIRequestContext, email: string): Promise<Row[]> {
  return (await service(
    request,
    'GET',
    `newsletter_subscriptions?select=audience_source_id,counted,not_counted_reason,channel,click_token_used&email=eq.${encodeURIComponent(email)}`,
  )) as unknown as Row[]
}

/** Opens the emailed link as the reader would, a minute "later" (the 2-second rule is tested in the database). */
async function confirmByEmail(browser: Browser, request: APIRequestContext, email: string) {
  const [message] = await new Mailbox(request).waitForMessagesTo(email)
  await service(request, 'PATCH', `newsletter_subscriptions?email=eq.${encodeURIComponent(email)}`, {
    armed_at: new Date(Date.now() - 60_000).toISOString(),
  })
  const page = await browser.newPage()
  await page.goto(confirmationLinks(message!)[0]!.replace(/^https?:\/\/[^/]+/, E2E.appUrl))
  await expect(page.getByTestId('confirmation')).toHaveAttribute('data-state', 'success')
  await page.close()
}

test('the snippet on another site: subscribe in the frame, confirmed and paid through the embed; the Embed page shows it', async ({
  browser,
  request,
}) => {
  const shown = (await service(request, 'GET', 'rpc/embed_offers?p_code=demo-approved')) as unknown as {
    offers: unknown[]
  }
  snippet = embedSnippet(E2E.appUrl, 'demo-approved', shown.offers.length)
  const room = Number(/height="(\d+)"/.exec(snippet)![1])
  const context = await browser.newContext({ userAgent: readerAgent(150) })
  const page = await context.newPage()
  const blocked: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text())
  })
  // Every layout shift of the host page, from its first paint on.
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number[] }
    w.shifts = []
    if (window.top === window)
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.shifts.push((entry as unknown as { value: number }).value)
      }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.goto(`${hostUrl}/thanks`)
  const frame = page.frameLocator('iframe[title="Recommended newsletters"]')
  await expect(frame.getByRole('heading', { name: "Newsletters Pat's Product Notes recommends" })).toBeVisible()
  // The frame keeps the room the snippet gave it, so the host's text after it never moved (embed.js adopted the
  // frame: one frame, no second one placed).
  await expect(page.locator('iframe')).toHaveCount(1)
  expect((await page.locator('iframe').boundingBox())!.height).toBe(room)
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([])
  const boxes = frame.getByRole('checkbox')
  expect(await boxes.count()).toBeGreaterThan(0)
  for (const box of await boxes.all()) await expect(box).not.toBeChecked()

  // Errors in sentences, then the reader's choice.
  await frame.getByRole('button', { name: 'Subscribe' }).click()
  await expect(frame.getByText('Choose at least one newsletter.')).toBeVisible()
  await frame.getByLabel(NEWSLETTER).check()
  await frame.getByRole('button', { name: 'Subscribe' }).click()
  await expect(frame.getByText('Please enter your email address')).toBeVisible()
  const email = readerAddress('embed-reader')
  await frame.getByLabel('Email address').fill(email)
  await frame.getByRole('button', { name: 'Subscribe' }).click()
  await expect(frame.getByRole('status').filter({ hasText: `we sent one email to ${email}` })).toBeVisible()
  expect(blocked).toEqual([])
  // The older line, pasted on sites before, still shows the offers (embed.js places the frame itself).
  await page.goto(`${hostUrl}/old`)
  await expect(
    page
      .frameLocator('iframe[title="Recommended newsletters"]')
      .getByRole('heading', { name: "Newsletters Pat's Product Notes recommends" }),
  ).toBeVisible()
  expect(blocked).toEqual([])
  await context.close()

  await confirmByEmail(browser, request, email)
  expect(await subscriptionOf(request, email)).toEqual([
    {
      audience_source_id: APPROVED_ID,
      counted: true,
      not_counted_reason: null,
      channel: 'embed',
      click_token_used: false,
    },
  ])

  // The publisher copies the snippet from the Embed page and sees the embed's figures.
  const publisher = await browser.newPage()
  await logInAs(publisher, DEMO_PUBLISHER, '/dashboard/publisher')
  await publisher.getByRole('link', { name: 'Embed' }).first().click()
  const card = publisher.getByTestId('embed-source').filter({ hasText: "Pat's Product Notes" })
  await expect(card.getByTestId('embed-snippet')).toHaveText(snippet)
  await expect(card.getByTestId('embed-paid')).not.toHaveText(/Paid subscribers0$/)
  await expect(card.getByTestId('embed-loads')).not.toHaveText(/Loads0$/)
  await publisher.close()
})

test('the frame works by keyboard, names every control and passes axe with its errors showing', async ({ page }) => {
  await page.goto('/embed/demo-approved')
  await page.getByRole('checkbox').first().waitFor()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('checkbox').first()).toBeFocused()
  await page.keyboard.press('Space')
  await expect(page.getByRole('checkbox').first()).toBeChecked()
  await page.getByLabel('Email address').focus()
  await page.keyboard.type('not-an-address')
  await page.keyboard.press('Enter')
  await expect(page.getByText('Please enter a valid email address')).toBeVisible()
  await expect(page.getByLabel('Email address')).toBeFocused()
  expect(await seriousViolations(page)).toEqual([])
})

test('a link clicked in one browser and finished in another: counted with its click token, no_click without', async ({
  browser,
  request,
}) => {
  // The tap inside an app: its in-app browser records the click and lands with the token in the URL.
  const inApp = await browser.newContext({ userAgent: `${readerAgent(151)} Instagram 350.0` })
  const tap = await inApp.newPage()
  await new Directory(tap).followMagicLink('demo-approved')
  const landed = new URL(tap.url())
  expect(landed.searchParams.get('ct')).toMatch(/^[0-9a-f-]{36}\.\d+\.[0-9a-f]{32}$/)
  await inApp.close()

  // "Open in Safari": another browser, nothing in its storage, the same URL.
  const readers = [
    { email: readerAddress('token-reader'), url: landed, agent: readerAgent(152) },
    { email: readerAddress('tokenless-reader'), url: new URL(landed), agent: readerAgent(153) },
  ]
  readers[1]!.url.searchParams.delete('ct')
  for (const reader of readers) {
    const context = await browser.newContext({ userAgent: reader.agent })
    const page = await context.newPage()
    await page.goto(reader.url.toString())
    const list = new NewslettersPage(page)
    await list.pick(NEWSLETTER)
    await list.subscribe(reader.email)
    await context.close()
    await confirmByEmail(browser, request, reader.email)
  }
  expect(await subscriptionOf(request, readers[0]!.email)).toMatchObject([
    { audience_source_id: APPROVED_ID, counted: true, not_counted_reason: null, click_token_used: true },
  ])
  expect(await subscriptionOf(request, readers[1]!.email)).toMatchObject([
    { audience_source_id: APPROVED_ID, counted: false, not_counted_reason: 'no_click', click_token_used: false },
  ])
})

test('the email link: fetching it subscribes no one; the page has the address filled in and one tap subscribes', async ({
  browser,
  request,
}) => {
  const email = readerAddress('email-reader')
  const link = `/earn/demo-approved?email=${encodeURIComponent(email)}`
  // A mail scanner follows the link.
  expect((await request.get(`${E2E.appUrl}${link}`)).ok()).toBe(true)
  const context = await browser.newContext({ userAgent: readerAgent(154) })
  const page = await context.newPage()
  await page.goto(link, { waitUntil: 'commit' })
  await page.waitForURL((url) => url.pathname === '/newsletters')
  const list = new NewslettersPage(page)
  await list.ready()
  const field = page.getByTestId('subscribe-panel').getByLabel('Email address')
  await expect(field).toHaveValue(email)
  // The address stays in the form, not in the address bar; the click token stays.
  expect(new URL(page.url()).searchParams.has('email')).toBe(false)
  expect(new URL(page.url()).searchParams.get('ct')).toBeTruthy()
  // Opening the page (with its scripts) created nothing either.
  expect(await subscriptionOf(request, email)).toEqual([])
  await list.pick(NEWSLETTER)
  await page
    .getByTestId('subscribe-panel')
    .getByRole('button', { name: /^Subscribe/ })
    .click()
  await expect(page.getByTestId('subscribe-success')).toBeVisible()
  await context.close()
  expect(await subscriptionOf(request, email)).toEqual([
    {
      audience_source_id: APPROVED_ID,
      counted: false,
      not_counted_reason: null,
      channel: 'email',
      click_token_used: false,
    },
  ])
})
