/**
 * Money that settles by itself, end to end (issue 11): subscribers brought by the demo publisher's magic link
 * confirm; their screening is backdated with the service role, as a week passing would; the embedded pg_cron
 * scheduler settles them on its own (no hand-run SQL), so the earnings become available; the publisher (whose
 * Stripe account the seed made ready) requests a payout in the dialog, send-payouts transfers it through the local
 * Connect stand-in, and the publisher sees it paid with the tr_… reference, as the admin does, and gets the email.
 * Meanwhile the demo advertiser disputes another subscriber, the publisher answers it from their dashboard, the
 * admin upholds it after reading both sides and the evidence, and the advertiser's hold is refunded.
 */
import { expect, test } from '@playwright/test'
import { logInAsAdmin } from './pages/admin'
import { DEMO_ADVERTISER, logInAs } from './pages/advertiser'
import { PublisherDisputes, openDispute } from './pages/disputes'
import { DevMailbox } from './pages/mailbox'
import {
  DEMO_PUBLISHER,
  DEMO_SOURCE_NAME,
  countedSubscribers,
  readerAddress,
  readerAgent,
  service,
} from './pages/readers'
import { openFromSidebar } from './pages/visit'

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
  await logInAs(publisher, DEMO_PUBLISHER, '/dashboard/publisher')
  await openFromSidebar(publisher, '/dashboard/publisher/payouts', 'Payouts')
  const available = publisher.getByTestId('payout-available')
  await expect(available).toHaveText(/credits/)
  const before = credits(await available.textContent())

  // Two subscribers (25.00 and 4.00 credits: 23.20 earned after the 20% fee), screening backdated: a week passes.
  const paidIds = await countedSubscribers(browser, request, readerAgent(127), readerAddress(`payout-${run}`), [
    'Founder Finance',
    'The Growth Memo',
  ])
  await service(request, 'PATCH', `wallet_transactions?subscription_id=in.(${paidIds.join(',')})&status=eq.pending`, {
    available_at: new Date(Date.now() - 60_000).toISOString(),
  })

  // While the scheduler gets to them: a subscriber of the demo advertiser's newsletter, disputed and upheld.
  const disputedEmail = readerAddress(`disputed-${run}`)
  const [disputedId] = await countedSubscribers(browser, request, readerAgent(126), disputedEmail, ['Design Dispatch'])
  const advertiser = await (await browser.newContext()).newPage()
  await logInAs(advertiser, DEMO_ADVERTISER, '/dashboard/advertiser')
  await openFromSidebar(advertiser, '/dashboard/advertiser/disputes', 'Disputes')
  const reason = `Never opened a single email (${run})`
  await openDispute(advertiser, DEMO_SOURCE_NAME, disputedEmail, reason)

  // The publisher answers first: the admin decides once they have (or once their 72 hours passed).
  const disputes = new PublisherDisputes(publisher, 'desk')
  await disputes.openFromMenu()
  await disputes.answer(DEMO_SOURCE_NAME, reason, 'I do not know this reader; decide as the evidence says.', [])
  await openFromSidebar(publisher, '/dashboard/publisher/payouts', 'Payouts')

  const admin = await (await browser.newContext()).newPage()
  await logInAsAdmin(admin)
  await openFromSidebar(admin, '/dashboard/admin/disputes', 'Disputes')
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

  await openFromSidebar(admin, '/dashboard/admin/money', 'Money')
  await expect(admin.getByTestId('admin-payout-row').filter({ hasText: reference })).toContainText('Paid')

  const email = await mailbox.waitForEmail(
    DEMO_PUBLISHER,
    new RegExp(`^Your payout of ${amount.replace('.', '\\.')} is on its way$`),
  )
  expect(email.text).toContain(`Transfer reference: ${reference}.`)
  // Its own contexts end with it (Playwright closes only the `page` fixture's): a tab left open lives, and may poll,
  // until the worker ends.
  for (const tab of [publisher, advertiser, admin]) await tab.context().close()
})
