/**
 * deliver-webhooks: sends the queued advertiser webhooks (public.webhook_deliveries) per Standard Webhooks —
 * webhook-id, webhook-timestamp and webhook-signature from the `standardwebhooks` package, signed at send
 * time with the endpoint's whsec_ secret. Called by the database only (pg_net, right after an event is queued
 * and from the deliver-webhooks pg_cron job each minute) with the functions secret (_shared/functions-secret.ts).
 * Every delivery runs in parallel with its own 10-second limit, so a receiver that hangs, answers 500 or drops
 * the connection costs only its own retry (finish_webhook_delivery schedules it) and never holds up the others.
 * Before each request — the endpoint and every redirect hop, followed by hand — the target must pass
 * checkWebhookTarget. A run stays inside hosted Supabase's limits (../_shared/run-budget.ts): at most MAX_BATCHES ×
 * BATCH deliveries, no new claim after its first minute, and any request still waiting at 110 s aborted (retried by
 * the next run).
 */
import { Webhook } from 'npm:standardwebhooks@1.1.1'
import { requireEnv } from '../_shared/env.ts'
import { requireFunctionsSecret } from '../_shared/functions-secret.ts'
import { errorResponse, json, requirePost } from '../_shared/http.ts'
import { runBudget, type RunBudget } from '../_shared/run-budget.ts'
import { serviceClient } from '../_shared/supabase-admin.ts'
import { checkWebhookTarget, RefusedTarget, type Resolve } from '../_shared/webhook-target.ts'
import { signedWebhookHeaders } from '../_shared/webhook-signing.ts'

type Claimed = {
  id: string
  message_id: string
  event_type: string
  payload: unknown
  url: string
  secret: string
  attempts: number
}
type Outcome = { status: number | null; error: string | null }

const BATCH = 20
const MAX_BATCHES = 10
const TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 5

const allowLoopbackHttp = () => Deno.env.get('WEBHOOKS_ALLOW_LOOPBACK_HTTP') === 'true'

const resolve: Resolve = async (host) => {
  const lookups = await Promise.allSettled([Deno.resolveDns(host, 'A'), Deno.resolveDns(host, 'AAAA')])
  const found = lookups.flatMap((r) => (r.status === 'fulfilled' ? r.value : []))
  const failure = lookups.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined
  if (found.length === 0 && failure) throw failure.reason
  return found
}

async function deliver(d: Claimed, budget: RunBudget): Promise<Outcome> {
  const body = JSON.stringify(d.payload)
  const webhook = new Webhook(d.secret)
  const headers = signedWebhookHeaders((id, at, payload) => webhook.sign(id, at, payload), d.message_id, body)
  const signal = AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), budget.signal])
  let url = new URL(d.url)
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      await checkWebhookTarget(url, resolve, allowLoopbackHttp())
      const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal })
      await response.body?.cancel()
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url)
        continue
      }
      return { status: response.status, error: response.ok ? null : `The endpoint answered ${response.status}` }
    }
    return { status: null, error: `More than ${MAX_REDIRECTS} redirects` }
  } catch (error) {
    if (error instanceof RefusedTarget) return { status: null, error: error.message }
    if (budget.signal.aborted) return { status: null, error: 'The run ran out of time before an answer came' }
    if ((error as Error).name === 'TimeoutError')
      return { status: null, error: `No answer within ${TIMEOUT_MS / 1000} seconds` }
    return { status: null, error: `Could not connect: ${(error as Error).message}`.slice(0, 300) }
  }
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  await requireFunctionsSecret(req, 'Only the database may deliver webhooks')
  const db = serviceClient()
  const budget = runBudget()
  let delivered = 0
  let failed = 0
  for (let i = 0; i < MAX_BATCHES && budget.canClaim(); i++) {
    const { data, error } = await db.rpc('claim_webhook_deliveries', { p_limit: BATCH })
    if (error) throw new Error(`claim_webhook_deliveries failed: ${error.message}`)
    const batch = (data ?? []) as Claimed[]
    if (batch.length === 0) break
    const outcomes = await Promise.all(batch.map(async (d) => ({ id: d.id, ...(await deliver(d, budget)) })))
    for (const o of outcomes) {
      const finished = await db.rpc('finish_webhook_delivery', {
        p_id: o.id,
        p_response_status: o.status,
        p_error: o.error,
      })
      if (finished.error) throw new Error(`finish_webhook_delivery failed: ${finished.error.message}`)
      if (o.error) failed++
      else delivered++
    }
    if (batch.length < BATCH) break
  }
  return json({ delivered, failed })
}

Deno.serve(async (req) => {
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
