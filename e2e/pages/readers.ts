/**
 * Readers who become paid subscribers of the demo publisher's source, as people do it (magic link, subscribe, the
 * confirmation email), and the service-role REST calls the specs use to look at or move what a week would move.
 * Shared by e2e/money.spec.ts and e2e/disputes.spec.ts.
 */
import { expect, type APIRequestContext, type Browser } from '@playwright/test'
import { apiKeys } from '../../embedded-backend/keys'
import { E2E } from '../ports'
import { Directory } from './directory'
import { Mailbox, NewslettersPage, confirmationLinks } from './newsletters'

export const DEMO_PUBLISHER = 'publisher@growletter.test'
/** The demo publisher's approved source (supabase/seed.sql), code demo-approved. */
export const DEMO_SOURCE_NAME = "Pat's Product Notes"

/** A service-role REST call (the backend's own key): what a spec reads or moves without a screen for it. */
export async function service(request: APIRequestContext, method: 'GET' | 'PATCH', path: string, data?: unknown) {
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
 * Each reader is a browser version of its own: money.spec.ts uses 126 and 127, disputes.spec.ts 120 to 123.
 */
export const readerAgent = (version: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`

/** A reader follows the demo publisher's magic link, subscribes to the newsletters and confirms each one. */
export async function countedSubscribers(
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

/**
 * A reader's address on a domain of its own. The suite's readers are separate people: on one shared domain, more than
 * three of them confirming through the demo source within 24 hours would meet the one-domain limit (domain_velocity,
 * PRODUCT "What counts as a paid subscriber") and the later ones would not be counted, depending on the specs' order.
 */
export const readerAddress = (name: string) => `${name}@${name}-readers.dev`
