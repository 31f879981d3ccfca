/**
 * A dispute heard on both sides, end to end (issue 37, PRODUCT "Fair to both sides"): the demo advertiser disputes
 * a paid subscriber the demo publisher's source brought; the publisher gets an email that names the newsletter, the
 * readers, the earnings at stake and the deadline, with a link to the dispute's page; the publisher signs in, reaches
 * Disputes by clicking from their dashboard (the sidebar on a desk, the section switcher on a phone), opens the
 * dispute and answers with text and an evidence link; the admin, who could not decide before, reads both sides and
 * decides; both sides are emailed the decision and see it on their dispute pages.
 */
import { expect, test, type Browser, type Page } from '@playwright/test'
import { logInAsAdmin } from './pages/admin'
import { DEMO_ADVERTISER, logInAs } from './pages/advertiser'
import { PublisherDisputes, openDispute } from './pages/disputes'
import { checkPage, settle } from './pages/layout-checks'
import { DevMailbox } from './pages/mailbox'
import { DEMO_PUBLISHER, DEMO_SOURCE_NAME, countedSubscribers, readerAddress, readerAgent } from './pages/readers'
import { openFromSidebar } from './pages/visit'

const viewports = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const

async function signedIn(browser: Browser, email: string, dashboard: string, device: keyof typeof viewports) {
  const page = await (await browser.newContext({ viewport: viewports[device] })).newPage()
  await logInAs(page, email, dashboard)
  return page
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

for (const [device, agent] of [
  ['desk', 120],
  ['phone', 121],
] as const) {
  test(`a publisher answers a dispute by clicking from their dashboard on a ${device}, and the admin decides with both sides`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(240_000)
    const run = `${device}-${Date.now().toString(36)}`
    const mailbox = new DevMailbox(request)
    const reason = `Never opened a single email (${run})`
    const answer = `These readers came from my launch post; they asked for design newsletters (${run}).`
    const evidence = `https://x.com/pat/status/${Date.now()}`

    // A reader subscribes through the demo publisher's magic link; the demo advertiser disputes them.
    const readerEmail = readerAddress(`disputed-${run}`)
    await countedSubscribers(browser, request, readerAgent(agent), readerEmail, ['Design Dispatch'])
    const advertiser = await signedIn(browser, DEMO_ADVERTISER, '/dashboard/advertiser', 'desk')
    await openFromSidebar(advertiser, '/dashboard/advertiser/disputes', 'Disputes')
    await openDispute(advertiser, DEMO_SOURCE_NAME, readerEmail, reason)
    await expect(advertiser.getByTestId('dispute-row').filter({ hasText: reason })).toContainText(
      'The publisher can answer until',
    )

    // The publisher is told, with what is at stake and until when to answer.
    const email = await mailbox.waitForEmail(
      DEMO_PUBLISHER,
      new RegExp(`^A dispute about ${escape(DEMO_SOURCE_NAME)}: answer by .+ UTC$`),
      // money.spec.ts may be opening one about the same source meanwhile: this test's is the one with its reason.
      { containing: reason },
    )
    expect(email.text).toContain(`brought to Design Dispatch. 1 reader: 2.40 credits of your pending earnings`)
    expect(email.text).toContain(`The advertiser's reason: “${reason}”`)
    expect(email.text).toMatch(/See the dispute and answer: http\S+\/dashboard\/publisher\/disputes\/[0-9a-f-]{36}/)

    // The admin cannot decide yet: the publisher has 72 hours.
    const admin = await (await browser.newContext({ viewport: viewports.desk })).newPage()
    await logInAsAdmin(admin)
    await openFromSidebar(admin, '/dashboard/admin/disputes', 'Disputes')
    const adminRow = admin.getByTestId('admin-dispute').filter({ hasText: reason })
    await expect(adminRow.getByTestId('dispute-answer-state')).toContainText("Waiting for the publisher's answer")
    await adminRow.getByRole('button', { name: 'Review' }).click()
    await expect(adminRow.getByTestId('dispute-waiting')).toBeVisible()
    await expect(adminRow.getByTestId('uphold-dispute')).toHaveCount(0)

    // The publisher signs in and clicks their way to the dispute, then answers it.
    const publisher = await signedIn(browser, DEMO_PUBLISHER, '/dashboard/publisher', device)
    const disputes = new PublisherDisputes(publisher, device)
    await disputes.openFromMenu()
    const row = disputes.dispute(reason)
    await expect(row).toContainText('Answer by')
    await expect(row).toContainText('2.40 credits')
    if (device === 'phone') {
      // Cards, not a table scrolled sideways; the dispute's page passes the layout checks on a phone too.
      await expect(row).toHaveJSProperty('tagName', 'LI')
      await settle(publisher)
      await checkPage(publisher, true, false)
    }
    await disputes.answer(DEMO_SOURCE_NAME, reason, answer, [evidence])
    await expect(publisher.getByTestId('disputed-reader')).toHaveCount(1)
    await expect(publisher.getByTestId('disputed-reader')).toContainText('On hold until the decision')
    await expect(publisher.getByTestId('dispute-readers-count')).toContainText('1')
    await expect(publisher.getByText(readerEmail)).toHaveCount(0)
    if (device === 'phone') await checkPage(publisher, true, false)
    expect(test.info().errors).toEqual([])

    // The admin reads both sides, then decides.
    await admin.reload()
    const reviewed = admin.getByTestId('admin-dispute').filter({ hasText: reason })
    await expect(reviewed.getByTestId('dispute-answer-state')).toContainText('The publisher answered')
    await reviewed.getByRole('button', { name: 'Review' }).click()
    const sides = reviewed.getByTestId('dispute-sides')
    await expect(sides).toContainText(reason)
    await expect(sides.getByTestId('dispute-publisher-side')).toContainText(answer)
    await expect(sides.getByRole('link', { name: evidence })).toBeVisible()
    await expect(sides).toContainText('Charges on hold3.00 credits')
    await reviewed.getByLabel(/^Decision note/).fill(`They came from a real launch post (${run})`)
    await reviewed.getByRole('button', { name: 'Reject' }).click()
    await admin.getByRole('dialog', { name: 'Reject this dispute?' }).getByTestId('confirm-dispute-decision').click()
    await expect(reviewed.getByText('Rejected', { exact: true })).toBeVisible()

    // Both sides are told, and see it on their dispute pages.
    const note = `They came from a real launch post (${run})`
    await mailbox.waitForEmail(DEMO_PUBLISHER, /^A dispute about Design Dispatch via .* was rejected$/, {
      containing: note,
    })
    await mailbox.waitForEmail(DEMO_ADVERTISER, /^Your dispute about Design Dispatch via .* was rejected$/, {
      containing: note,
    })
    await publisher.reload()
    await expect(publisher.getByTestId('dispute-outcome')).toContainText('Your earnings stand.')
    await expect(publisher.getByTestId('dispute-decision')).toContainText(`They came from a real launch post (${run})`)
    await advertiser.reload()
    const outcome = advertiser.getByTestId('dispute-row').filter({ hasText: reason })
    await expect(outcome.getByTestId('dispute-publisher-answer')).toContainText(answer)
    await expect(outcome.getByTestId('dispute-outcome')).toContainText(`They came from a real launch post (${run})`)
    await closeAll([advertiser, admin, publisher])
  })
}

async function closeAll(pages: Page[]) {
  for (const page of pages) await page.context().close()
}
