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
 * Many due readers of one key's list are read by the tool's paged list instead (claim_esp_engagement_lists, the
 * clients' `engagementList`, finish_esp_engagement_list: a page a request, all its readers recorded in one call, by
 * the same rule); the rest one by one.
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
import {
  espClient,
  isEspProvider,
  type EspEngagement,
  type EspFailure,
  type EspListPage,
  type EspResult,
} from '../_shared/esp/index.ts'
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
/** What claim_esp_engagement_lists hands out: a list read of one key's list, its pages granted and its readers. */
type ListClaim = {
  list_read_id: string
  provider: string
  target_id: string
  api_key: string
  since: string
  pages: number
  page_size: number
  readers: { id: string; email: string; remote_id: string | null }[]
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
// List reads a claim hands out at once (each its own key's list, read side by side), and the readers a run takes by
// list reads (claim_esp_engagement_lists hands out at most 10,000 a call): parsing and matching 10,000 readers' pages
// took 0.34–0.77 s (beehiiv's 100 pages the most) at load 15–44 on 2 cores (bench/engaged-pay.ts), so with the
// deliveries' and single reads' 0.49 s a run stays under the 2 s CPU limit.
const LIST_BATCH = 4
const MAX_LIST_READERS = 10_000

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

/**
 * One read as finish_esp_engagement and finish_esp_engagement_list take it: the same fields from the same figures
 * whichever path read them. Machine counts only where the tool tells them apart (otherwise the database counts
 * clicks only); `clicked` for a tool reporting rates, not counts (beehiiv, Mailchimp).
 */
function readFacts(e: EspEngagement) {
  return {
    engaged: e.engaged,
    opens: e.opens ?? null,
    clicks: e.clicks ?? null,
    machine_opens: e.machineOpens ?? null,
    machine_clicks: e.machineClicks ?? null,
    clicked: e.clicks === undefined && e.clickRate !== undefined ? e.clickRate > 0 : null,
  }
}

type ListOutcome = {
  reads: Map<string, ReturnType<typeof readFacts>>
  pages: number
  complete: boolean
  total: number | null
  failure?: EspFailure
}

/**
 * Reads a list page after page (each one request of the pages granted) and matches its members to the claimed
 * readers by the id the tool gave at delivery, else by email. Stops when the list ends, when every reader was seen
 * (complete either way), at the pages granted or the run's end (cut short), or at a failure.
 */
async function readList(c: ListClaim, timedFetch: typeof fetch, budget: RunBudget): Promise<ListOutcome> {
  const reads = new Map<string, ReturnType<typeof readFacts>>()
  const done = (pages: number, complete: boolean, total: number | null, failure?: EspFailure): ListOutcome => ({
    reads,
    pages,
    complete,
    total,
    ...(failure ? { failure } : {}),
  })
  if (!isEspProvider(c.provider))
    return done(0, false, null, { ok: false, retryable: false, status: 0, message: `Unknown provider ${c.provider}` })
  const client = espClient(c.provider, (name) => Deno.env.get(name), { fetch: timedFetch })
  if (!client.engagementList)
    return done(0, false, null, {
      ok: false,
      retryable: false,
      status: 0,
      message: `${c.provider} does not list engagement`,
    })
  const byRemote = new Map(c.readers.filter((r) => r.remote_id).map((r) => [r.remote_id!, r.id]))
  const byEmail = new Map(c.readers.map((r) => [r.email.toLowerCase(), r.id]))
  let cursor: string | null = null
  let listed = 0
  let total: number | null = null
  for (let pages = 0; pages < c.pages;) {
    if (budget.signal.aborted) return done(pages, false, total)
    let answer: EspResult<{ page: EspListPage }>
    try {
      answer = await client.engagementList(c.api_key, c.target_id, {
        since: new Date(c.since),
        cursor,
        pageSize: c.page_size,
      })
    } catch (error) {
      answer = {
        ok: false,
        retryable: true,
        status: 0,
        message: `Reading the list failed: ${(error as Error)?.message}`,
      }
    }
    pages++
    if (!answer.ok) return done(pages, false, total, answer)
    listed += answer.page.members.length
    total = answer.page.total ?? total
    for (const m of answer.page.members) {
      const id = (m.remoteId && byRemote.get(m.remoteId)) || byEmail.get(m.email.toLowerCase())
      if (id) reads.set(id, readFacts(m.engagement))
    }
    // The whole list listed: its count is known (the tool's, or what was listed).
    if (!answer.page.next) return done(pages, true, total ?? listed)
    if (reads.size === c.readers.length) return done(pages, true, total)
    cursor = answer.page.next
  }
  return done(c.pages, false, total)
}

/**
 * Engagement read-backs by list pages (issue 39): when many readers of one key's list are due, the database hands the
 * list out (claim_esp_engagement_lists) and one call records them all (finish_esp_engagement_list); what is left goes
 * one by one (readBack). A list read is one connection, its pages one after another; lists run side by side.
 */
async function readBackLists(db: Db, budget: RunBudget, timedFetch: typeof fetch) {
  const counts = { lists: 0, pages: 0, read: 0, missing: 0, waiting: 0 }
  let readers = 0
  for (let i = 0; i < MAX_BATCHES && budget.canClaim() && readers < MAX_LIST_READERS; i++) {
    const { data, error } = await db.rpc('claim_esp_engagement_lists', { p_limit: LIST_BATCH })
    if (error) throw new Error(`claim_esp_engagement_lists failed: ${error.message}`)
    const lists = (data ?? []) as ListClaim[]
    if (lists.length === 0) break
    readers += lists.reduce((n, c) => n + c.readers.length, 0)
    const outcomes = await Promise.all(lists.map(async (c) => ({ c, o: await readList(c, timedFetch, budget) })))
    for (const { c, o } of outcomes) {
      const failure = o.failure
      const finished = await db.rpc('finish_esp_engagement_list', {
        p_list_read_id: c.list_read_id,
        p_reads: [...o.reads].map(([id, facts]) => ({ id, ...facts })),
        p_pages: o.pages,
        p_complete: o.complete,
        p_total: o.total,
        p_response_status: failure ? failure.status || null : null,
        p_error: failure ? failure.message : null,
        p_retry_after_ms: failure?.retryAfterMs === undefined ? null : Math.round(failure.retryAfterMs),
      })
      if (finished.error) throw new Error(`finish_esp_engagement_list failed: ${finished.error.message}`)
      const r = finished.data as { read: number; missing: number; waiting: number }
      counts.lists++
      counts.pages += o.pages
      counts.read += r.read
      counts.missing += r.missing
      counts.waiting += r.waiting
    }
  }
  return counts
}

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
          ? (({ engaged, opens, clicks, machine_opens, machine_clicks, clicked }) => ({
              p_id: id,
              p_engaged: engaged,
              p_opens: opens,
              p_clicks: clicks,
              p_machine_opens: machine_opens,
              p_machine_clicks: machine_clicks,
              p_clicked: clicked,
            }))(readFacts(read))
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
  const lists = await readBackLists(db, budget, timedFetch)
  const engagement = await readBack(db, budget, timedFetch)
  return json({ ...counts, engagement: { ...engagement, lists }, removals })
}

Deno.serve(async (req) => {
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
