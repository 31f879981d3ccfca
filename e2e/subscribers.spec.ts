/**
 * The advertiser takes their subscribers home (issue 15): an endpoint on a local receiver (http://127.0.0.1,
 * allowed by the embedded backend only) gets subscriber.confirmed within moments of a reader confirming,
 * signed so that it verifies with the standardwebhooks package and the secret shown once; the CSV export
 * holds the confirmed address and never a pending one.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { Webhook } from 'standardwebhooks'
import { E2E } from './ports'
import { DEMO_ACCOUNTS, dashboardOf, uniqueEmail } from './pages/auth'
import { logInAs } from './pages/advertiser'
import { openFromSidebar } from './pages/visit'
import { Mailbox, NewslettersPage, confirmationLinks } from './pages/newsletters'

type Hit = { headers: Record<string, string>; body: string }

test('webhook and CSV: a confirmed reader reaches the advertiser, a pending one never does', async ({
  page,
  browser,
  request,
}) => {
  const hits: Hit[] = []
  const receiver = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      hits.push({ headers: req.headers as Record<string, string>, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/growletter`

  try {
    await logInAs(page, DEMO_ACCOUNTS.advertiser, dashboardOf.advertiser)
    await openFromSidebar(page, '/dashboard/advertiser/subscribers', 'Subscribers')
    await page.getByLabel('Newsletter', { exact: true }).selectOption({ label: 'The Frontend Brief' })
    await page.getByLabel('Endpoint URL').fill(hookUrl)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim()
    expect(secret).toMatch(/^whsec_/)
    await page.getByRole('button', { name: 'I saved it' }).click()

    // A reader confirms one newsletter; another reader leaves theirs pending.
    const confirmed = uniqueEmail('csv-confirmed')
    const pending = uniqueEmail('csv-pending')
    const reader = await browser.newContext()
    const readerPage = await reader.newPage()
    for (const email of [confirmed, pending]) {
      await readerPage.goto('/newsletters')
      const newsletters = new NewslettersPage(readerPage)
      await newsletters.pick('The Frontend Brief')
      await newsletters.subscribe(email)
    }
    const [message] = await new Mailbox(request).waitForMessagesTo(confirmed)
    await readerPage.goto(confirmationLinks(message!)[0]!.replace(/^https?:\/\/[^/]+/, E2E.appUrl))
    await expect(readerPage.getByTestId('confirmation')).toHaveAttribute('data-state', 'success')
    await reader.close()

    // The signed event arrives (pg_net → deliver-webhooks → the receiver) and verifies.
    await expect.poll(() => hits.filter((h) => h.body.includes(confirmed)).length, { timeout: 30_000 }).toBe(1)
    const hit = hits.find((h) => h.body.includes(confirmed))!
    const event = new Webhook(secret).verify(hit.body, hit.headers) as { type: string; data: { email: string } }
    expect(event).toMatchObject({ type: 'subscriber.confirmed', data: { email: confirmed } })
    expect(hits.some((h) => h.body.includes(pending))).toBe(false)

    // The list shows the confirmed reader; the CSV holds them and not the pending one.
    await page.reload()
    await page.getByLabel('Search by email').fill(confirmed)
    await expect(page.getByTestId('subscriber-table')).toContainText(confirmed)
    const download = page.waitForEvent('download')
    await page.getByTestId('export-subscribers').click()
    const csv = await readFile((await (await download).path())!, 'utf8')
    expect(csv.split('\r\n')[0]).toBe('"email","confirmed_at","source","status","charged"')
    expect(csv).toContain(`"${confirmed}"`)
    expect(csv).not.toContain(pending)
  } finally {
    receiver.close()
  }
})
