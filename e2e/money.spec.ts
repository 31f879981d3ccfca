/**
 * Money that settles by itself, end to end (issue 11): subscribers brought by the demo publisher's magic link
 * confirm; their screening is backdated with the service role, as a week passing would; the embedded pg_cron
 * scheduler settles them on its own (no hand-run SQL), so the earnings become available; the publisher (whose
 * Stripe account the seed made ready) requests a payout in the dialog, send-payouts transfers it through the local
 * Connect stand-in, and the publisher sees it paid with the tr_… reference, as the admin does, and gets the email. Meanwhile the demo advertiser disputes another subscriber, the admin upholds it
 * after reading the evidence, and the advertiser's hold is refunded.
 */
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test'
import { apiKeys } from '../embedded-backend/keys'
import { E2E } from './ports'
import { logInAsAdmin } from './pages/admin'
import { DEMO_ADVERTISER, logInThroughUi } from './pages/advertiser'
import { Directory } from './pages/directory'
import { DevMailbox } from './pages/mailbox'
import { Mailbox, NewslettersPage, confirmationLinks } from './pages/newsletters'

const DEMO_PUBLISHER = 'publisher@growletter.test'
const SOURCE_NAME = "Pat's Product Notes"

async function service(request: APIRequestContext, method: 'GET' | 'PATCH', path: string, data?: unknown) {
  const { serviceRoleKey } = await apiKeys()
  const response = await request.fetch(`${E2E.apiUrl}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
      'Content-Type': 'application/json',
      Prefer: 'return=representation',
    },
    data,
  })
  expect(response.ok(), await response.text()).toBe(true)
  return (await response.json()) as Record<string, unknown>[]
}

/**
 * A visitor is IP + browser (PRODUCT "visitor hash") and every browser of the suite is 127.0.0.1: a second click
 * on the same source within the hour would be a duplicate_visitor (not counted, so its subscriber no_click).
 * Each reader here is a browser version of its own, none of which the other specs use.
 */
const readerAgent = (version: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`

/** A reader follows the demo publisher's magic link, subscribes to the newsletters and confirms each one. */
async function countedSubscribers(
  browser: Browser,
  request: APIRequestContext,
  agent: string,
  email: string,
  newsletters: string[],
) {
  const page = await (await browser.newContext({ userAgent: agent })).newPage()
  await new Directory(page).followMagicLink('demo-approved')
  const list = new NewslettersPage(page)
  await list.pick(...newsletters)
  await list.subscribe(email)
  const [message] = await new Mailbox(request).waitForMessagesTo(email)
  // Read the email like a person (confirming within 2 s of sending does not count).
  await page.waitForTimeout(2100)
  // The first link confirms every newsletter of the request ("Confirm all", or the only one's own link).
  const [link] = confirmationLinks(message!)
  await page.goto(link!.replace(/^https?:\/\/[^/]+/, E2E.appUrl))
  await expect(page.getByTestId('confirmation')).toHaveAttribute('data-state', 'success')
  await page.context().close()
  const rows = await service(
    request,
    'GET',
    `newsletter_subscriptions?select=id,counted,not_counted_reason&email=eq.${encodeURIComponent(email)}`,
  )
  expect(rows.map((r) => [r.counted, r.not_counted_reason])).toEqual(newsletters.map(() => [true, null]))
  return rows.map((r) => r.id as string)
}

const credits = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''))

test('earnings settle by themselves and are paid out; an upheld dispute refunds the advertiser', async ({
  browser,
  request,
}) => {
  test.setTimeout(360_000)
  const run = Date.now().toString(36)
  const mailbox = new DevMailbox(request)

  // The publisher's available earnings before.
  const publisher = await (await browser.newContext()).newPage()
  await logInThroughUi(publisher, DEMO_PUBLISHER, '/dashboard/publisher')
  await publisher.goto('/dashboard/publisher/payouts')
  const available = publisher.getByTestId('payout-available')
  await expect(available).toHaveText(/credits/)
  const before = credits(await available.textContent())

  // Two subscribers (25.00 and 4.00 credits: 23.20 earned after the 20% fee), screening backdated: a week passes.
  const paidIds = await countedSubscribers(browser, request, readerAgent(127), `payout-${run}@growletter-readers.dev`, [
    'Founder Finance',
    'The Growth Memo',
  ])
  await service(request, 'PATCH', `wallet_transactions?subscription_id=in.(${paidIds.join(',')})&status=eq.pending`, {
    available_at: new Date(Date.now() - 60_000).toISOString(),
  })

  // While the scheduler gets to them: a subscriber of the demo advertiser's newsletter, disputed and upheld.
  const disputedEmail = `disputed-${run}@growletter-readers.dev`
  const [disputedId] = await countedSubscribers(browser, request, readerAgent(126), disputedEmail, ['Design Dispatch'])
  const advertiser = await (await browser.newContext()).newPage()
  await logInThroughUi(advertiser, DEMO_ADVERTISER, '/dashboard/advertiser')
  await advertiser.goto('/dashboard/advertiser/disputes')
  await advertiser.getByTestId('open-dispute').click()
  const dialog = advertiser.getByRole('dialog')
  await dialog.getByLabel('Source').selectOption({ label: SOURCE_NAME })
  await dialog.getByRole('checkbox', { name: new RegExp(disputedEmail) }).check()
  const reason = `Never opened a single email (${run})`
  await dialog.getByLabel('What is wrong?').fill(reason)
  await dialog.getByTestId('submit-dispute').click()
  await expect(dialog).toBeHidden()
  await expect(advertiser.getByTestId('dispute-row').filter({ hasText: reason })).toContainText('Open')

  const admin = await (await browser.newContext()).newPage()
  await logInAsAdmin(admin)
  await admin.goto('/dashboard/admin/disputes')
  const dispute = admin.getByTestId('admin-dispute').filter({ hasText: reason })
  await dispute.getByRole('button', { name: 'Review' }).click()
  await expect(dispute.getByTestId('dispute-evidence')).toContainText('Confirmed within 10 s of the email')
  await expect(dispute.getByTestId('dispute-evidence')).toContainText(disputedEmail)
  await dispute.getByLabel(/^Decision note/).fill('No opens at all: refunded')
  await dispute.getByTestId('uphold-dispute').click()
  // Upholding moves money: it asks first.
  await admin
    .getByRole('dialog', { name: 'Uphold this dispute and refund?' })
    .getByTestId('confirm-dispute-decision')
    .click()
  await expect(dispute.getByText('Upheld', { exact: true })).toBeVisible()

  await advertiser.reload()
  const outcome = advertiser.getByTestId('dispute-row').filter({ hasText: reason })
  await expect(outcome).toContainText('Upheld')
  await expect(outcome.getByTestId('dispute-outcome')).toContainText('Refunded 1 subscriber (3.00 credits)')
  const holds = await service(
    request,
    'GET',
    `wallet_transactions?select=type,status&subscription_id=eq.${disputedId}&order=type`,
  )
  expect(holds).toEqual(
    expect.arrayContaining([
      { type: 'earning', status: 'canceled' },
      { type: 'hold', status: 'canceled' },
    ]),
  )
  await mailbox.waitForEmail(DEMO_ADVERTISER, /^Your dispute about Design Dispatch via .* was upheld$/)

  // The scheduler's minute comes: the earnings are available without anyone pressing a button.
  const expected = Math.round((before + 23.2) * 100) / 100
  await expect
    .poll(
      async () => {
        await publisher.reload()
        return credits(await available.textContent())
      },
      { timeout: 90_000, intervals: [3000] },
    )
    .toBe(expected)
  expect(expected).toBeGreaterThanOrEqual(50)

  await publisher.getByTestId('open-payout-dialog').click()
  const payoutDialog = publisher.getByRole('dialog')
  await expect(payoutDialog.getByTestId('payout-dialog-available')).toHaveText(`${expected.toFixed(2)} credits`)
  await payoutDialog.getByTestId('confirm-payout-request').click()
  await expect(payoutDialog).toBeHidden()
  const amount = `${expected.toFixed(2)} credits`
  await expect(publisher.getByTestId('payout-available')).toHaveText('0.00 credits')
  // Sent at once by send-payouts (the database calls it through pg_net): the history follows it until it is paid.
  const row = publisher.getByTestId('payout-row').filter({ hasText: amount }).first()
  await expect(row).toContainText('Paid', { timeout: 60_000 })
  const reference = (await row.getByText(/^tr_/).textContent())!.trim()
  expect(reference).toMatch(/^tr_[A-Za-z0-9]+$/)

  await admin.goto('/dashboard/admin/money')
  await expect(admin.getByTestId('admin-payout-row').filter({ hasText: reference })).toContainText('Paid')

  const email = await mailbox.waitForEmail(
    DEMO_PUBLISHER,
    new RegExp(`^Your payout of ${amount.replace('.', '\\.')} is on its way$`),
  )
  expect(email.text).toContain(`Transfer reference: ${reference}.`)
})
