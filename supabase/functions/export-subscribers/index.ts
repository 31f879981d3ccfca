/**
 * export-subscribers: a campaign's confirmed subscribers as a CSV download, for its advertiser (or an admin).
 * POST { campaignId } with the user's session. Why a function and not REST's CSV output: REST caps a
 * response at `max_rows` (1,000, config.toml) and builds it whole in memory, while a campaign can have
 * 100,000 subscribers. Here the body is a stream that pulls one keyset page (campaign_subscribers_export,
 * 1,000 rows) only when the previous one has been sent, so memory stays flat whatever the size and a slow
 * download slows the reads instead of piling rows up. The database function checks who may read (the
 * caller's JWT is forwarded, so RLS and auth.uid() are the caller's own) and never returns a pending address.
 */
import { createClient } from 'npm:@supabase/supabase-js@2.109'
import { preflight } from '../_shared/cors.ts'
import { corsHeaders } from '../_shared/cors.ts'
import { csvRow } from '../_shared/rules/csv.ts'
import { publishableKey, requireEnv } from '../_shared/env.ts'
import { errorResponse, HttpError, readJsonObject, requirePost } from '../_shared/http.ts'

const PAGE = 1000
const HEADER = ['email', 'confirmed_at', 'source', 'status', 'charged']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

type Row = {
  id: string
  email: string
  confirmed_at: string
  source_name: string | null
  status: string
  charged: string
}

function callerClient(req: Request) {
  const authorization = req.headers.get('authorization') ?? ''
  return createClient(requireEnv('SUPABASE_URL'), publishableKey(), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

async function page(db: ReturnType<typeof callerClient>, campaignId: string, after: Row | null): Promise<Row[]> {
  const { data, error } = await db.rpc('campaign_subscribers_export', {
    p_campaign_id: campaignId,
    p_after_confirmed_at: after?.confirmed_at ?? null,
    p_after_id: after?.id ?? null,
    p_limit: PAGE,
  })
  if (error) {
    if (error.code === '42501') throw new HttpError(403, error.message)
    throw new Error(`campaign_subscribers_export failed: ${error.message}`)
  }
  return (data ?? []) as Row[]
}

async function handle(req: Request): Promise<Response> {
  requirePost(req)
  const campaignId = (await readJsonObject(req)).campaignId
  if (typeof campaignId !== 'string' || !UUID.test(campaignId)) throw new HttpError(400, 'Choose a campaign to export')
  const db = callerClient(req)
  // The first page before answering: a refusal is a clean 403, not a broken download.
  const first = await page(db, campaignId, null)
  const encoder = new TextEncoder()
  let pending: Row[] | null = first
  let last: Row | null = null
  let headerSent = false
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true
        controller.enqueue(encoder.encode(csvRow(HEADER)))
        return
      }
      const rows = pending ?? (await page(db, campaignId, last))
      pending = null
      if (rows.length === 0) {
        controller.close()
        return
      }
      last = rows[rows.length - 1]!
      controller.enqueue(
        encoder.encode(
          rows.map((r) => csvRow([r.email, r.confirmed_at, r.source_name ?? '', r.status, r.charged])).join(''),
        ),
      )
      if (rows.length < PAGE) controller.close()
    },
  })
  const day = new Date().toISOString().slice(0, 10)
  return new Response(body, {
    headers: {
      ...corsHeaders,
      'Access-Control-Expose-Headers': 'Content-Disposition',
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="subscribers-${campaignId.slice(0, 8)}-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}

Deno.serve(async (req) => {
  const early = preflight(req)
  if (early) return early
  try {
    return await handle(req)
  } catch (error) {
    return errorResponse(error, (message) => ({ error: message }))
  }
})
