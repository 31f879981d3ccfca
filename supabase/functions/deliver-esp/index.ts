/**
 * deliver-esp: delivers queued subscribers (public.esp_deliveries) into the advertisers' email tools — beehiiv,
 * Kit, Mailchimp, MailerLite — through the clients in ../_shared/esp (each cites the provider's API reference).
 * Called by the database only (pg_net right after a confirmation or a backfill is queued, and the deliver-esp
 * pg_cron job each minute while anything is due) with the functions secret (_shared/functions-secret.ts).
 *
 * The database decides what goes when: claim_esp_deliveries hands out only what each API key's budget allows
 * (Kit 120 requests/60 s per key, beehiiv 180/min, MailerLite 120/min, Mailchimp 10 at once) and nothing for a
 * key a 429 paused, so concurrent runs never overspend a key. finish_esp_delivery records each outcome: 429, 5xx
 * and no answer are retried after Retry-After or the backoff for a day; any other 4xx fails with the provider's
 * message. Every request has its own 15-second limit, so one provider that hangs holds up nothing else.
 *
 * Then, with what the deliveries left of each key's budget, it reads back engagement (claim_esp_engagement): the
 * opens and clicks of delivered subscribers during screening (or a newsletter's engagement window, with one final read
 * after it closes for readers paid per engagement), from all four providers (the clients' `engagement`; Kit by the
 * subscriber id it gave), kept by finish_esp_engagement, which also decides what counts (a person's open or click
 * where the tool tells machines apart, else clicks only). The read-esp-engagement job kicks it when read-backs are due.
 *
 * First of all it performs the removals advertisers asked for (remove_refunded_from_esp, issue 38): a refunded reader
 * taken out of the tool (the clients' `remove`), claimed by claim_esp_removals and recorded by finish_esp_removal with
 * the same retry rules as a delivery.
 *
 * One run stays inside hosted Supabase's limits (../_shared/run-budget.ts): at most MAX_BATCHES batches of BATCH rows
 * for deliveries and as many for read-backs (the CPU bound, measured by bench/edge-limits.ts), no new claim after the
 * run's first minute and every request still waiting aborted at 110 s (the wall-clock bound, under the 2-minute lease
 * claim_esp_deliveries takes); what is left stays due for the next run.
 */
import { espClient, isEspProvider, type EspEngagement, type EspFailure } from '../_shared/esp/index.ts'
import { requireEnv } from '../_shared/env.ts'
import { requireFunctionsSecret } from '../_shared/functions-secret.ts'
import { errorResponse, json, requirePost } from '../_shared/http.ts'
import { budgetedFetch, runBudget, type RunBudget } from '../_shared/run-budget.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'

type Claimed = {
  id: string
  provider: string
  target_id: string
  api_key: string
  email: string
  confirmed_at: string
  confirm_ip: string | null
  source_name: string
  campaign_name: string
}
type Outcome = { ok: true; remoteId: string } | EspFailure
type EngagementClaim = {
  id: string
  provider: string
  target_id: string
  api_key: string
  email: string
  remote_id: string | null
}
/** What claim_esp_removals hands out: the same fields as a read-back's. */
type RemovalClaim = EngagementClaim
type Read = ({ ok: true } & EspEngagement) | EspFailure

const BATCH = 20
// A run ends after this many batches of deliveries and as many of read-backs; the job each minute (or the next kick)
// goes on from there. 12: a run doing both at this bound used 0.49 s of the 2 s CPU limit (bench/edge-limits.ts, load 12
// on 2 cores); 25 batches of deliveries alone used 0.48–0.74 s, and read-backs cost as much again.
const MAX_BATCHES = 12
const TIMEOUT_MS = 15_000

async function deliver(d: Claimed, timedFetch: typeof fetch): Promise<Outcome> {
  if (!isEspProvider(d.provider))
    return { ok: false, retryable: false, status: 0, message: `Unknown provider ${d.provider}` }
  const client = espClient(d.provider, (name) => Deno.env.get(name), {
    fetch: timedFetch,
    siteUrl: Deno.env.get('SITE_URL') || undefined,
  })
  try {
    return await client.deliver(d.api_key, d.target_id, {
      email: d.email,
      confirmedAt: d.confirmed_at,
      ip: d.confirm_ip,
      sourceName: d.source_name,
      campaignName: d.campaign_name,
    })
  } catch (error) {
    // A client bug must cost one delivery a retry, not the batch.
    return { ok: false, retryable: true, status: 0, message: `Delivery failed: ${(error as Error)?.message}` }
  }
}

async function readEngagement(d: EngagementClaim, timedFetch: typeof fetch): Promise<Read> {
  if (!isEspProvider(d.provider))
    return { ok: false, retryable: false, status: 0, message: `Unknown provider ${d.provider}` }
  const client = espClient(d.provider, (name) => Deno.env.get(name), { fetch: timedFetch })
  if (!client.engagement)
    return { ok: false, retryable: false, status: 0, message: `${d.provider} does not report engagement` }
  try {
    const answer = await client.engagement(d.api_key, d.target_id, d.email, d.remote_id)
    if (!answer.ok) return answer
    return { ok: true, ...answer.engagement }
  } catch (error) {
    return { ok: false, retryable: true, status: 0, message: `Reading engagement failed: ${(error as Error)?.message}` }
  }
}

type Db = ReturnType<typeof serviceClient>

async function removeOne(d: RemovalClaim, timedFetch: typeof fetch): Promise<{ ok: true } | EspFailure> {
  if (!isEspProvider(d.provider))
    return { ok: false, retryable: false, status: 0, message: `Unknown provider ${d.provider}` }
  if (!d.remote_id)
    return { ok: false, retryable: false, status: 0, message: 'The email tool gave no id for this reader at delivery' }
  const client = espClient(d.provider, (name) => Deno.env.get(name), { fetch: timedFetch })
  try {
    return await client.remove(d.api_key, d.target_id, d.remote_id, d.email)
  } catch (error) {
    return { ok: false, retryable: true, status: 0, message: `Removal failed: ${(error as Error)?.message}` }
  }
}

/** Removals of refunded readers the advertisers asked for; few, so they go before the deliveries. */
async function removeRefunded(db: Db, budget: RunBudget, timedFetch: typeof fetch) {
  const counts = { removed: 0, waiting: 0, failed: 0 }
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await db.rpc('claim_esp_removals', { p_limit: BATCH })
    if (error) throw new Error(`claim_esp_removals failed: ${error.message}`)
    const batch = (data ?? []) as RemovalClaim[]
    if (batch.length === 0) break
    const outcomes = await Promise.all(batch.map(async (d) => ({ id: d.id, done: await removeOne(d, timedFetch) })))
    for (const { id, done } of outcomes) {
      const finished = await db.rpc(
        'finish_esp_removal',
        done.ok
          ? { p_id: id, p_response_status: 200 }
          : {
              p_id: id,
              p_response_status: done.status || null,
              p_error: done.message,
              p_retryable: done.retryable,
              p_retry_after_ms: done.retryAfterMs === undefined ? null : Math.round(done.retryAfterMs),
            },
      )
      if (finished.error) throw new Error(`finish_esp_removal failed: ${finished.error.message}`)
      if (finished.data === 'removed') counts.removed++
      else if (finished.data === 'failed') counts.failed++
      else counts.waiting++
    }
  }
  return counts
}

/** Engagement read-backs, after the deliveries (which had the budget first). */
async function readBack(db: Db, budget: RunBudget, timedFetch: typeof fetch) {
  const counts = { read: 0, waiting: 0 }
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await db.rpc('claim_esp_engagement', { p_limit: BATCH })
    if (error) throw new Error(`claim_esp_engagement failed: ${error.message}`)
    const batch = (data ?? []) as EngagementClaim[]
    if (batch.length === 0) break
    const outcomes = await Promise.all(
      batch.map(async (d) => ({ id: d.id, read: await readEngagement(d, timedFetch) })),
    )
    for (const { id, read } of outcomes) {
      const finished = await db.rpc(
        'finish_esp_engagement',
        read.ok
          ? {
              p_id: id,
              p_engaged: read.engaged,
              p_opens: read.opens ?? null,
              p_clicks: read.clicks ?? null,
              // Only where the tool tells machine activity apart; otherwise the database counts clicks only.
              p_machine_opens: read.machineOpens ?? null,
              p_machine_clicks: read.machineClicks ?? null,
              // A tool reporting rates, not counts (beehiiv, Mailchimp): whether it saw a click.
              p_clicked: read.clicks === undefined && read.clickRate !== undefined ? read.clickRate > 0 : null,
            }
          : {
              p_id: id,
              p_engaged: false,
              p_response_status: read.status || null,
              p_error: read.message,
              p_retry_after_ms: read.retryAfterMs === undefined ? null : Math.round(read.retryAfterMs),
            },
      )
      if (finished.error) throw new Error(`finish_esp_engagement failed: ${finished.error.message}`)
      if (finished.data === 'read') counts.read++
      else counts.waiting++
    }
  }
  return counts
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  await requireFunctionsSecret(req, 'Only the database may deliver subscribers to email tools')
  const db = serviceClient()
  const budget = runBudget()
  const timedFetch = budgetedFetch(budget, TIMEOUT_MS)
  const removals = await removeRefunded(db, budget, timedFetch)
  const counts = { delivered: 0, retrying: 0, failed: 0 }
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await db.rpc('claim_esp_deliveries', { p_limit: BATCH })
    if (error) throw new Error(`claim_esp_deliveries failed: ${error.message}`)
    const batch = (data ?? []) as Claimed[]
    if (batch.length === 0) break
    const outcomes = await Promise.all(batch.map(async (d) => ({ id: d.id, outcome: await deliver(d, timedFetch) })))
    for (const { id, outcome } of outcomes) {
      const finished = await db.rpc(
        'finish_esp_delivery',
        outcome.ok
          ? { p_id: id, p_remote_id: outcome.remoteId, p_response_status: 200 }
          : {
              p_id: id,
              p_remote_id: null,
              p_response_status: outcome.status || null,
              p_error: outcome.message,
              p_retryable: outcome.retryable,
              p_retry_after_ms: outcome.retryAfterMs === undefined ? null : Math.round(outcome.retryAfterMs),
            },
      )
      if (finished.error) throw new Error(`finish_esp_delivery failed: ${finished.error.message}`)
      const state = finished.data as string
      if (state === 'delivered') counts.delivered++
      else if (state === 'failed') counts.failed++
      else counts.retrying++
    }
  }
  const engagement = await readBack(db, budget, timedFetch)
  return json({ ...counts, engagement, removals })
}

Deno.serve(async (req) => {
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
