/**
 * Magic links end to end (issue 6): a seeded approved source's link lands on /newsletters with the query and
 * the SPEC §3 keys and a counted click in the database; a second visit is recorded but not counted; a
 * pending source and an unknown code land on the unavailable page with the 'Source Unavailable' toast.
 */
import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiKeys } from '../embedded-backend/keys'
import { E2E } from './ports'
import { Directory } from './pages/directory'

const APPROVED_ID = '10000000-0000-4000-a000-000000000001'

type ClickRow = {
  id: string
  counted: boolean
  not_counted_reason: string | null
  browser: string | null
  fingerprint: string | null
}

/** The newest clicks of a source, read with the service-role key (a visitor cannot read clicks). */
async function clicksOf(request: APIRequestContext, sourceId: string): Promise<ClickRow[]> {
  const { serviceRoleKey } = await apiKeys()
  const response = await request.get(
    `${E2E.apiUrl}/rest/v1/link_clicks?select=id,counted,not_counted_reason,browser,fingerprint&audience_source_id=eq.${sourceId}&order=created_at.desc`,
    { headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` } },
  )
  expect(response.ok(), await response.text()).toBe(true)
  return (await response.json()) as ClickRow[]
}

test('an approved source: /newsletters with the query, the storage keys and one counted click; a repeat is not counted', async ({
  page,
  request,
}) => {
  const before = await clicksOf(request, APPROVED_ID)
  const rpcCalls: string[] = []
  page.on('request', (r) => {
    if (r.url().startsWith(E2E.apiUrl) && r.method() !== 'OPTIONS') rpcCalls.push(r.url())
  })
  const directory = new Directory(page)
  await directory.followMagicLink('demo-approved')
  // ct: the click's signed token (issue 41), so the attribution survives a change of browser.
  await expect(page).toHaveURL(
    new RegExp(
      `^${E2E.appUrl}/newsletters\\?source=demo-approved&audience_source_id=${APPROVED_ID}&ct=[0-9a-f-]{36}\\.\\d+\\.[0-9a-f]{32}$`,
    ),
  )
  expect(rpcCalls.filter((u) => u.includes('/rpc/track_audience_source_click'))).toHaveLength(1)

  const stored = await directory.localStorage([
    'audience_source_id',
    'source_name',
    'source_unified_code',
    'magic_link_source',
    'source_attribution',
    'magic_link_timestamp',
    'source_attribution_timestamp',
    'source_attribution_page',
  ])
  expect(stored).toMatchObject({
    audience_source_id: APPROVED_ID,
    source_name: "Pat's Product Notes",
    source_unified_code: 'demo-approved',
    magic_link_source: 'demo-approved',
    source_attribution_page: 'magic_link_redirect',
  })
  expect(stored.magic_link_timestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
  expect(await page.evaluate(() => sessionStorage.getItem('magic_link_source'))).toBe('demo-approved')
  await expect(page.getByTestId('source-banner')).toContainText("Pat's Product Notes")

  const afterFirst = await clicksOf(request, APPROVED_ID)
  expect(afterFirst).toHaveLength(before.length + 1)
  expect(afterFirst[0]).toMatchObject({ counted: true, not_counted_reason: null, browser: 'Chrome' })
  // The fast path sends the click at once and attaches the fingerprint once the browser has computed it.
  await expect
    .poll(async () => (await clicksOf(request, APPROVED_ID)).find((c) => c.id === afterFirst[0]!.id)?.fingerprint)
    .toMatch(/^[0-9a-f]{32}$/)

  await directory.followMagicLink('demo-approved')
  await expect(page).toHaveURL(/\/newsletters\?source=demo-approved/)
  const afterSecond = await clicksOf(request, APPROVED_ID)
  expect(afterSecond).toHaveLength(before.length + 2)
  expect(afterSecond[0]).toMatchObject({ counted: false, not_counted_reason: 'duplicate_visitor' })
})

test('a magic link is served the light page (dist/earn.html), not the prerendered home page', async ({ request }) => {
  const html = await (await request.get('/earn/demo-approved')).text()
  expect(html).toContain('id="earn-spinner"')
  expect(html).toContain('__growletterEarnClick')
  expect(html).toContain('<meta name="robots" content="noindex">')
  expect(html).not.toContain('data-prerendered')
  // Nothing competes with the click for the tab: no module, preload or stylesheet before the redirect.
  expect(html).not.toMatch(/type="module"|modulepreload|rel="stylesheet"/)
})

for (const code of ['demo-rejected', 'no-such-code-e2e']) {
  test(`${code}: the unavailable page with the 'Source Unavailable' toast`, async ({ page }) => {
    await new Directory(page).followMagicLink(code)
    await expect(page).toHaveURL(`${E2E.appUrl}/newsletters/unavailable`)
    await expect(page.getByText('Source Unavailable')).toBeVisible()
    await expect(page.getByText('This source is no longer available')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible()
  })
}

test('demo-pending: a source waiting for review says its link starts working once approved', async ({ page }) => {
  await new Directory(page).followMagicLink('demo-pending')
  await expect(page).toHaveURL(`${E2E.appUrl}/newsletters/unavailable?reason=pending`)
  await expect(page.getByText('Source not approved yet')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'This link is not active yet' })).toBeVisible()
  await expect(page.getByText(/This link starts working once the source is approved\. Meanwhile/)).toBeVisible()
  await expect(page.getByText('This link no longer works')).toHaveCount(0)
})

test('the directory lists the seeded public sources with their badges', async ({ page }) => {
  const directory = new Directory(page)
  await directory.open()
  await expect(directory.cards().first()).toBeVisible()
  await expect(page.getByTestId('audience-count')).toHaveText(/^\d+ audience sources?$/)
  await expect(directory.cards().filter({ hasText: "Pat's Product Notes" }).getByTestId('status-badge')).toHaveText(
    'Verified',
  )
  await expect(directory.cards().filter({ hasText: 'Sam Builds Live' }).getByTestId('status-badge')).toHaveText('Live')
  await expect(directory.cards().filter({ hasText: 'Deal Blaster' })).toHaveCount(0)
})
