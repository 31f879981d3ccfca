/**
 * export-subscribers: a campaign's confirmed subscribers as a CSV download, for its advertiser (or an admin).
 * POST { campaignId, after?, rows? } with the user's session. Why a function and not REST's CSV output: REST caps a
 * response at `max_rows` (1,000, config.toml), while a campaign can have hundreds of thousands of subscribers. The
 * database function checks who may read (the caller's JWT is forwarded, so RLS and auth.uid() are the caller's own)
 * and never returns a pending address.
 *
 * Paged, so any size stays inside hosted Supabase's limits (../_shared/run-budget.ts: 2 s of CPU and 256 MB per
 * request). One request answers one part: at most PART_ROWS rows (or `rows`, fewer), read a keyset page
 * (campaign_subscribers_export, 1,000 rows) at a time. When more remain, the `X-Export-Next` header carries the cursor
 * to send back as `after` for the next part, which has no header line: the parts concatenated are the file. Measured
 * by bench/edge-limits.ts: about 3.5 µs of CPU a row here, so a part is about a tenth of the CPU limit and ~4 MB.
 */
import { createClient } from 'npm:@supabase/supabase-js@2.109'
import { preflight } from '../_shared/cors.ts'
import { corsHeaders } from '../_shared/cors.ts'
import { csvRow } from '../_shared/rules/csv.ts'
import { publishableKey, requireEnv } from '../_shared/env.ts'
import { errorResponse, HttpError, readJsonObject, requirePost } from '../_shared/http.ts'

const PAGE = 1000
const PART_ROWS = 50_000
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
type Cursor = { confirmed_at: string; id: string }

/** The cursor travels as base64url JSON `[confirmed_at, id]`: opaque to the SPA, checked here. */
const encodeCursor = (c: Cursor) =>
  btoa(JSON.stringify([c.confirmed_at, c.id]))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

function decodeCursor(value: unknown): Cursor | null {
  if (value === undefined || value === null) return null
  try {
    const [confirmedAt, id] = JSON.parse(atob(String(value).replace(/-/g, '+').replace(/_/g, '/')))
    if (typeof confirmedAt === 'string' && !Number.isNaN(Date.parse(confirmedAt)) && UUID.test(String(id)))
      return { confirmed_at: confirmedAt, id: String(id) }
  } catch {
    // Falls through to the 400.
  }
  throw new HttpError(400, 'This export cannot be continued: start it again')
}

function callerClient(req: Request) {
  const authorization = req.headers.get('authorization') ?? ''
  return createClient(requireEnv('SUPABASE_URL'), publishableKey(), {
    global: { headers: { Authorization: authorization } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  })
}

async function page(db: ReturnType<typeof callerClient>, campaignId: string, after: Cursor | null): Promise<Row[]> {
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
  const body = await readJsonObject(req)
  const campaignId = body.campaignId
  if (typeof campaignId !== 'string' || !UUID.test(campaignId)) throw new HttpError(400, 'Choose a campaign to export')
  const after = decodeCursor(body.after)
  const limit = Math.min(PART_ROWS, Math.max(1, Math.floor(Number(body.rows ?? PART_ROWS)) || PART_ROWS))
  const db = callerClient(req)
  const chunks = after ? [] : [csvRow(HEADER)]
  let last: Cursor | null = after
  let count = 0
  let next: Cursor | null = null
  for (;;) {
    const rows = await page(db, campaignId, last)
    const taken = rows.slice(0, limit - count)
    chunks.push(taken.map((r) => csvRow([r.email, r.confirmed_at, r.source_name ?? '', r.status, r.charged])).join(''))
    count += taken.length
    if (taken.length > 0) last = taken[taken.length - 1]!
    if (count >= limit && (taken.length < rows.length || rows.length === PAGE)) next = last
    if (next || rows.length < PAGE) break
  }
  const day = new Date().toISOString().slice(0, 10)
  return new Response(chunks.join(''), {
    headers: {
      ...corsHeaders,
      'Access-Control-Expose-Headers': 'Content-Disposition, X-Export-Next',
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="subscribers-${campaignId.slice(0, 8)}-${day}.csv"`,
      'Cache-Control': 'no-store',
      ...(next ? { 'X-Export-Next': encodeCursor(next) } : {}),
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
