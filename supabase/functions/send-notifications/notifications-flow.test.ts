// Notification emails end to end in the embedded backend: an event queues an email, pg_net (the local
// worker) calls the send-notifications edge function with the service-role key from Vault, the function
// sends it through SMTP into the dev mailbox and marks it sent; the pg_cron job delivers what a lost call
// left behind; a send that fails is retried, never lost.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import { latestMail, messagesTo } from '../../../embedded-backend/testing/auth-mailbox'

let backend: Backend
beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true, cron: false })
})
afterAll(async () => {
  await backend?.close()
})

async function publisher() {
  const id = randomUUID()
  const email = `notify-${id.slice(0, 8)}@example.test`
  await backend.db.query(
    `insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, now(), '{"user_type":"publisher","full_name":"Nora Notified"}')`,
    [id, email],
  )
  const source = await backend.db.query<{ id: string }>(
    `insert into public.audience_sources (publisher_id, name, platform, status, unified_code)
     values ($1, 'Nora''s list', 'newsletter', 'pending_review', $2) returning id`,
    [id, `n-${id.slice(0, 8)}`],
  )
  return { id, email, sourceId: source.rows[0]!.id }
}

const statusOf = async (userId: string) =>
  (
    await backend.db.query<{ status: string; attempts: number; last_error: string | null }>(
      'select status, attempts, last_error from public.notification_queue where user_id = $1',
      [userId],
    )
  ).rows

it('emails a review decision right after it commits, through pg_net and the send-notifications function', async () => {
  const p = await publisher()
  await backend.db.query(
    "update public.audience_sources set status = 'rejected', review_note = 'Tell us who reads it' where id = $1",
    [p.sourceId],
  )
  expect(await backend.cron.drainNet()).toBe(1)
  const mail = await latestMail(backend.mailboxUrl, p.email, 'was not approved')
  expect(mail.subject).toBe("Your source “Nora's list” was not approved")
  expect(mail.text).toContain('Hi Nora Notified,')
  expect(mail.text).toContain("The reviewer's note: “Tell us who reads it”")
  expect(mail.html).toContain('/dashboard/publisher/sources')
  expect(await statusOf(p.id)).toEqual([{ status: 'sent', attempts: 1, last_error: null }])
  const [answer] = (
    await backend.db.query<{ status_code: number; content: string }>(
      'select status_code, content from net._http_response order by created desc limit 1',
    )
  ).rows
  // The call sends everything due: this email and any the seed's decisions queued.
  expect(answer!.status_code).toBe(200)
  expect(JSON.parse(answer!.content)).toMatchObject({ failed: 0 })
  expect(JSON.parse(answer!.content).sent).toBeGreaterThanOrEqual(1)
})

it('delivers through the scheduled job what a lost call left queued', async () => {
  const p = await publisher()
  await backend.db.query("update public.audience_sources set status = 'approved' where id = $1", [p.sourceId])
  // The call pg_net would have made is lost (pg_net delivers at most once).
  await backend.db.query("delete from net.http_request_queue where url like '%send-notifications'")
  const t0 = new Date()
  await backend.cron.tick(t0)
  const runs = await backend.cron.tick(new Date(t0.getTime() + 60_000))
  expect(runs.find((r) => r.jobname === 'send-notifications')).toMatchObject({ status: 'succeeded' })
  const mail = await latestMail(backend.mailboxUrl, p.email, 'is approved')
  expect(mail.subject).toBe("Your source “Nora's list” is approved")
  expect(await statusOf(p.id)).toEqual([{ status: 'sent', attempts: 1, last_error: null }])
})

it('keeps a notification it could not send and retries it later', async () => {
  const p = await publisher()
  // No address to send to: the send fails (as an SMTP refusal would) and the row waits for its retry.
  await backend.db.query('update public.profiles set email = null where id = $1', [p.id])
  await backend.db.query("update public.audience_sources set status = 'approved' where id = $1", [p.sourceId])
  await backend.cron.drainNet()
  expect(await statusOf(p.id)).toEqual([
    { status: 'queued', attempts: 1, last_error: 'The recipient has no email address' },
  ])
  await backend.db.query('update public.profiles set email = $2 where id = $1', [p.id, p.email])
  await backend.db.query('update public.notification_queue set next_attempt_at = now() where user_id = $1', [p.id])
  expect(await backend.db.query('select private.dispatch_notifications()')).toBeTruthy()
  await backend.cron.drainNet()
  expect(await statusOf(p.id)).toEqual([{ status: 'sent', attempts: 2, last_error: null }])
  expect(await messagesTo(backend.mailboxUrl, p.email)).toHaveLength(1)
})

it('refuses callers other than the database', async () => {
  const res = await fetch(`${backend.apiUrl}/functions/v1/send-notifications`, {
    method: 'POST',
    headers: {
      apikey: backend.anonKey,
      authorization: `Bearer ${backend.anonKey}`,
      'content-type': 'application/json',
    },
    body: '{}',
  })
  expect(res.status).toBe(403)
  expect(await res.json()).toEqual({ error: 'Only the database may send notifications' })
})
