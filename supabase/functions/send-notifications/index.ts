/**
 * send-notifications: delivers the queued notification emails (public.notification_queue). Called by the
 * database — pg_net, from the `send-notifications` pg_cron job each minute and right after a notification
 * is queued — with the functions secret (_shared/functions-secret.ts); nobody else may call it. It claims due
 * rows (claim_notifications: skip locked, with a 5-minute lease), renders each from ./templates, sends it through the
 * mailer (the email API in production, SMTP locally: _shared/mailer.ts) and reports back (finish_notification). A
 * failed send is retried later with backoff, and a crash mid-way leaves the lease to expire, so an email is never lost
 * to a failing email service; the row's id is the email API's idempotency key, so the resend after a lost answer is
 * not a second email. A run stays inside hosted Supabase's limits (../_shared/run-budget.ts): at most MAX_BATCHES ×
 * BATCH emails, no new claim after its first minute, and an email API request still waiting at 110 s abandoned
 * (retried later).
 */
import { renderNotification } from './templates/render.ts'
import { siteUrl } from '../_shared/env.ts'
import { requireFunctionsSecret } from '../_shared/functions-secret.ts'
import { errorResponse, json, requirePost } from '../_shared/http.ts'
import { requireEmailSettings, sendEmail } from '../_shared/mailer.ts'
import { runBudget } from '../_shared/run-budget.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

type Claimed = {
  id: string
  template: string
  data: Record<string, unknown>
  email: string | null
  full_name: string | null
}

const BATCH = 20
/** Enough batches for a burst; what remains waits for the next call (the job runs every minute). */
const MAX_BATCHES = 10

async function deliver(n: Claimed, signal: AbortSignal): Promise<string | null> {
  if (!n.email) return 'The recipient has no email address'
  try {
    const email = renderNotification(n.template, { email: n.email, name: n.full_name }, n.data ?? {}, siteUrl())
    // The queue row's id as the idempotency key: a resend after a lost answer (the lease expired) is not a second email.
    await sendEmail({ to: n.email, ...email, idempotencyKey: `notification/${n.id}` }, signal)
    return null
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  requireEmailSettings()
  await requireFunctionsSecret(req, 'Only the database may send notifications')
  const db = serviceClient()
  const budget = runBudget()
  let sent = 0
  let failed = 0
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await db.rpc('claim_notifications', { p_limit: BATCH })
    if (error) throw new Error(`claim_notifications failed: ${error.message}`)
    const batch = (data ?? []) as Claimed[]
    if (batch.length === 0) break
    const outcomes = await Promise.all(batch.map(async (n) => ({ id: n.id, error: await deliver(n, budget.signal) })))
    for (const { id, error: sendError } of outcomes) {
      const finished = await db.rpc('finish_notification', { p_id: id, p_error: sendError })
      if (finished.error) throw new Error(`finish_notification failed: ${finished.error.message}`)
      if (sendError) {
        failed++
        console.error(`send-notifications: ${id}: ${sendError}`)
      } else {
        sent++
      }
    }
    if (batch.length < BATCH) break
  }
  return json({ sent, failed })
}

Deno.serve(async (req) => {
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
