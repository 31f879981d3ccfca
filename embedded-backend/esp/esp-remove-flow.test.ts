// Removing a refunded reader from the advertiser's email tool, end to end in the embedded backend (issue 38): the
// campaign's advertiser calls remove_refunded_from_esp for a refunded reader that was delivered into Kit; deliver-esp
// (kicked through pg_net) unsubscribes them there with the key from Vault and records when. Only the campaign's own
// advertiser, only refunded readers, only delivered ones; a removal that fails keeps the reason and can be asked again.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../server'

const CAMPAIGN = '20000000-0000-4000-a000-000000000001' // the demo advertiser's active campaign (seed)
const FORM = '1001'
const hash = (token: string) => createHash('sha256').update(token).digest('hex')

let backend: Backend
let token: string

async function signIn(email: string, password = 'growletter-demo') {
  const res = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

async function otherAdvertiser() {
  const email = `other-${randomUUID().slice(0, 8)}@example.test`
  const created = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: backend.secretKey,
      authorization: `Bearer ${backend.secretKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      email,
      password: 'a-long-password-1',
      email_confirm: true,
      user_metadata: { user_type: 'advertiser' },
    }),
  })
  expect(created.status).toBeLessThan(300)
  return signIn(email, 'a-long-password-1')
}

const rpc = (name: string, body: unknown, bearer = token) =>
  fetch(`${backend.apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const remove = async (subscriptionId: string, bearer = token) => {
  const res = await rpc('remove_refunded_from_esp', { p_subscription_id: subscriptionId }, bearer)
  return { status: res.status, body: (await res.json()) as { message?: string } }
}

async function confirmed(email: string) {
  const t = randomUUID()
  await backend.db.query('select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[])', [
    email,
    [CAMPAIGN],
    [hash(t)],
  ])
  await backend.db.query(
    "update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1",
    [email],
  )
  await backend.db.query("select public.confirm_subscription($1, $2, '203.0.113.9')", [hash(t), email])
  const row = await backend.db.query<{ id: string }>(
    'select id from public.newsletter_subscriptions where email = $1',
    [email],
  )
  return row.rows[0]!.id
}

const refund = (id: string) =>
  backend.db.query(
    "update public.newsletter_subscriptions set counted = false, not_counted_reason = 'refunded' where id = $1",
    [id],
  )

const removalOf = async (id: string) =>
  (
    await backend.db.query<{
      status: string
      removal_status: string | null
      removal_error: string | null
      removed_at: Date | null
      remote_id: string | null
    }>(
      `select status, removal_status, removal_error, removed_at, remote_id from public.esp_deliveries
       where subscription_id = $1`,
      [id],
    )
  ).rows[0]!

const kitRequests = async () =>
  (await (await fetch(`${backend.apiUrl}/esp/_api/requests?provider=kit`)).json()) as {
    method: string
    path: string
    status: number
  }[]

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
  token = await signIn('advertiser@growletter.test')
  const saved = await rpc('save_esp_connection', {
    p_campaign_id: CAMPAIGN,
    p_provider: 'kit',
    p_api_key: 'local-kit-key',
    p_target_id: FORM,
    p_target_name: 'Demo newsletter sign-up (Kit)',
    p_backfill: false,
  })
  expect(saved.status).toBe(200)
})
afterAll(async () => {
  await backend?.close()
})

describe('remove_refunded_from_esp', () => {
  it('removes a refunded, delivered reader from Kit through deliver-esp and records when', async () => {
    const id = await confirmed(`refunded-${randomUUID().slice(0, 8)}@example.com`)
    await backend.cron.drainNet()
    expect(await removalOf(id)).toMatchObject({ status: 'delivered', removal_status: null })
    await refund(id)

    const asked = await remove(id)
    expect(asked.status).toBe(200)
    expect((await removalOf(id)).removal_status).toBe('queued')
    expect((await remove(id)).body.message).toBe('This reader is already being removed from your email tool')

    await backend.cron.drainNet()
    const done = await removalOf(id)
    expect(done).toMatchObject({ removal_status: 'removed', removal_error: null })
    expect(done.removed_at).toBeTruthy()
    const unsubscribe = (await kitRequests()).filter((r) => r.path === `/v4/subscribers/${done.remote_id}/unsubscribe`)
    expect(unsubscribe).toEqual([expect.objectContaining({ method: 'POST', status: 204 })])
    expect((await remove(id)).body.message).toBe('This reader was already removed from your email tool')
  })

  it('refuses another advertiser, a publisher, a reader still paid for and one never delivered', async () => {
    const paid = await confirmed(`kept-${randomUUID().slice(0, 8)}@example.com`)
    await backend.cron.drainNet()
    const notRefunded = await remove(paid)
    expect(notRefunded.status).toBe(400)
    expect(notRefunded.body.message).toBe(
      'Only refunded readers can be removed from your email tool; this reader is still paid for',
    )

    await refund(paid)
    const stranger = await remove(paid, await otherAdvertiser())
    expect(stranger.status).toBe(403)
    expect(stranger.body.message).toBe('This reader was not sent to an email tool of yours: nothing to remove')
    const publisher = await remove(paid, await signIn('publisher@growletter.test'))
    expect(publisher.status).toBe(403)
    expect(publisher.body.message).toBe('Only advertisers can remove readers from their email tool')
    expect((await removalOf(paid)).removal_status).toBeNull()

    const failed = await confirmed(`failed-${randomUUID().slice(0, 8)}@example.com`)
    await backend.db.query("update public.esp_deliveries set status = 'failed' where subscription_id = $1", [failed])
    await refund(failed)
    const never = await remove(failed)
    expect(never.status).toBe(400)
    expect(never.body.message).toBe('This reader never reached your email tool: nothing to remove')
  })

  it('keeps the reason of a removal that failed, and lets the advertiser ask again', async () => {
    const id = await confirmed(`retry-${randomUUID().slice(0, 8)}@example.com`)
    await backend.cron.drainNet()
    await refund(id)
    const { remote_id } = await removalOf(id)
    await backend.db.query("update public.esp_deliveries set remote_id = '999999999' where subscription_id = $1", [id])
    await fetch(`${backend.apiUrl}/esp/_control/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'kit', status: 503, count: 1 }),
    })
    expect((await remove(id)).status).toBe(200)
    await backend.cron.drainNet()
    const waiting = await removalOf(id)
    expect(waiting.removal_status).toBe('queued')
    expect(waiting.removal_error).toBeTruthy()

    // Not retryable: the subscriber id the tool gave is gone from the row.
    await backend.db.query(
      "update public.esp_deliveries set remote_id = null, removal_next_attempt_at = now() - interval '1 second' where subscription_id = $1",
      [id],
    )
    await backend.db.query('select private.dispatch_esp_deliveries()')
    await backend.cron.drainNet()
    expect(await removalOf(id)).toMatchObject({
      removal_status: 'failed',
      removal_error: 'The email tool gave no id for this reader at delivery',
    })

    await backend.db.query('update public.esp_deliveries set remote_id = $2 where subscription_id = $1', [
      id,
      remote_id,
    ])
    expect((await remove(id)).status).toBe(200)
    await backend.cron.drainNet()
    expect(await removalOf(id)).toMatchObject({ removal_status: 'removed', removal_error: null })
  })
})
