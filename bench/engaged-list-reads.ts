/**
 * The list read-back of bench/engaged-pay.ts (issue 39): 10,000 readers of one newsletter whose windows close
 * together, read back through ONE API key per provider by the tool's paged list (claim_esp_engagement_lists, the
 * real clients' `engagementList`, finish_esp_engagement_list), as deliver-esp reads them.
 *
 * The tool is simulated, not waited for: a fetch in this process answers each page in the provider's documented shape
 * (10,000 members with stats), so the clients' own parsing and matching are timed; each page is assumed to take
 * BENCH_PAGE_LATENCY_MS at the tool (default 500 ms, a slow page of 1,000 members with stats). The budget's clock is
 * simulated too: the database's request log (private.esp_request_log) and key pauses are moved 10 minutes into the
 * past between runs — one run of the read-esp-engagement job each 10 minutes — so each claim sees what the key's
 * published budget leaves, exactly as it would in real time. Minutes to all read = the wait for the job's next run
 * (at most 10 min) + 10 min per further run + the run's pages one after another at the page latency.
 */
import type { Db } from '../embedded-backend/db/database'
import { espClient, type EspProvider } from '../supabase/functions/_shared/esp/index.ts'

const PAGE_LATENCY_MS = Number(process.env.BENCH_PAGE_LATENCY_MS ?? 500)
const JOB_EVERY_MIN = 10
const MAX_BATCHES = 12 // deliver-esp's bound per run
const LIST_BATCH = 4

type Member = { id: string; email: string; remoteId: string; clicked: boolean }
type ListClaim = {
  list_read_id: string
  provider: string
  target_id: string
  api_key: string
  since: string | Date
  pages: number
  page_size: number
  readers: { id: string; email: string; remote_id: string | null }[]
}

/** The tool's list endpoint for `members`, page by page, in the provider's documented shape. */
function fakeTool(provider: EspProvider, members: Member[], counter: { requests: number }): typeof fetch {
  const page = (offset: number, size: number) => members.slice(offset, offset + size)
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  return (async (input: string | URL | Request, init?: RequestInit) => {
    counter.requests++
    const url = new URL(String(input))
    if (provider === 'mailchimp') {
      const offset = Number(url.searchParams.get('offset') ?? 0)
      const rows = page(offset, Number(url.searchParams.get('count')))
      return json({
        members: rows.map((m) => ({
          id: m.remoteId,
          email_address: m.email,
          stats: { avg_open_rate: 0.2, avg_click_rate: m.clicked ? 0.1 : 0 },
        })),
        total_items: members.length,
      })
    }
    if (provider === 'mailerlite') {
      const offset = Number(url.searchParams.get('cursor') ?? 0)
      const size = Number(url.searchParams.get('limit'))
      const rows = page(offset, size)
      return json({
        data: rows.map((m) => ({
          id: m.remoteId,
          email: m.email,
          status: 'active',
          opens_count: 2,
          clicks_count: m.clicked ? 1 : 0,
          open_rate: 20,
          click_rate: m.clicked ? 10 : 0,
        })),
        meta: { per_page: size, next_cursor: offset + size < members.length ? String(offset + size) : null },
      })
    }
    if (provider === 'kit') {
      const body = JSON.parse(String(init?.body ?? '{}')) as { after?: string; per_page: number }
      const offset = Number(body.after ?? 0)
      const rows = page(offset, body.per_page)
      const next = offset + body.per_page < members.length
      return json({
        subscribers: rows.map((m) => ({
          id: m.remoteId,
          email_address: m.email,
          state: 'active',
          created_at: '2026-11-14T10:00:00Z',
          stats: { sent: 3, opened: 2, clicked: m.clicked ? 1 : 0, bounced: 0, open_rate: 0.66, click_rate: 0 },
        })),
        pagination: {
          has_next_page: next,
          end_cursor: next ? String(offset + body.per_page) : null,
          total_count: members.length,
        },
      })
    }
    const offset = Number(url.searchParams.get('cursor') ?? 0)
    const size = Number(url.searchParams.get('limit'))
    const rows = page(offset, size)
    const more = offset + size < members.length
    return json({
      data: rows.map((m) => ({
        id: m.remoteId,
        email: m.email,
        status: 'active',
        created: Math.floor(Date.now() / 1000) - 86_400,
        stats: { emails_received: 3, open_rate: 20, click_through_rate: m.clicked ? 10 : 0 },
      })),
      limit: size,
      has_more: more,
      next_cursor: more ? String(offset + size) : null,
      total_results: members.length,
    })
  }) as typeof fetch
}

/** Puts the readers back to "never read" and connects the newsletter to `provider` through its own key. */
async function reset(db: Db, campaign: string, tag: string, provider: EspProvider) {
  await db.query(
    `update public.esp_deliveries d set engagement_checked_at = null, engaged = null, opens = null, clicks = null,
       machine_opens = null, machine_clicks = null, counted_engagement = null, engagement_locked_until = null,
       engagement_retry_at = null
     from public.newsletter_subscriptions s where s.id = d.subscription_id and s.email like $1`,
    [`${tag}-%`],
  )
  const fp = `bench-key-${provider}`
  await db.query('update public.esp_connections set provider = $2, key_fingerprint = $3 where campaign_id = $1', [
    campaign,
    provider,
    fp,
  ])
  await db.query('delete from private.esp_list_reads where key_fingerprint = $1', [fp])
  await db.query('delete from private.esp_list_sizes where key_fingerprint = $1', [fp])
  await db.query('delete from private.esp_request_log where key_fingerprint = $1', [fp])
  await db.query('delete from private.esp_key_pauses where key_fingerprint = $1', [fp])
  return fp
}

export type ListReadFigures = {
  provider: EspProvider
  read: number
  runs: number
  pages: number
  requests: number
  claimMs: number
  finishMs: number
  longestFinishMs: number
  clientMs: number
  minutesToRead: number
}

/** Reads back every due reader of `tag` through `provider`'s list, run after run on the simulated clock. */
export async function listReadBack(
  db: Db,
  campaign: string,
  tag: string,
  provider: EspProvider,
): Promise<ListReadFigures> {
  const fp = await reset(db, campaign, tag, provider)
  const members: Member[] = (
    await db.query<{ id: string; email: string; remote_id: string }>(
      `select d.id, s.email::text as email, d.remote_id from public.esp_deliveries d
       join public.newsletter_subscriptions s on s.id = d.subscription_id where s.email like $1 order by s.email`,
      [`${tag}-%`],
    )
  ).rows.map((r, i) => ({ id: r.id, email: r.email, remoteId: r.remote_id, clicked: i % 2 === 0 }))
  const counter = { requests: 0 }
  const client = espClient(provider, () => `http://tool.invalid/${provider}`, {
    fetch: fakeTool(provider, members, counter),
  })
  const f: ListReadFigures = {
    provider,
    read: 0,
    runs: 0,
    pages: 0,
    requests: 0,
    claimMs: 0,
    finishMs: 0,
    longestFinishMs: 0,
    clientMs: 0,
    minutesToRead: 0,
  }
  let runWallMs = 0
  for (; f.runs < 50;) {
    f.runs++
    let pagesThisRun = 0
    let claimedAny = false
    for (let i = 0; i < MAX_BATCHES; i++) {
      const t0 = performance.now()
      const claims = (await db.query<ListClaim>('select * from public.claim_esp_engagement_lists($1)', [LIST_BATCH]))
        .rows
      f.claimMs += performance.now() - t0
      if (claims.length === 0) break
      // Lists of other keys (none in the seed) are handed back unread.
      for (const c of claims.filter((x) => x.provider !== provider))
        await db.query('select public.finish_esp_engagement_list($1, $2::jsonb, 0, false)', [c.list_read_id, '[]'])
      const mine = claims.filter((c) => c.provider === provider)
      claimedAny = true
      for (const c of mine) {
        const t1 = performance.now()
        const byRemote = new Map(c.readers.map((r) => [r.remote_id ?? '', r.id]))
        const byEmail = new Map(c.readers.map((r) => [r.email.toLowerCase(), r.id]))
        const reads = new Map<string, Record<string, unknown>>()
        let cursor: string | null = null
        let pages = 0
        let complete = false
        let total: number | null = null
        let listed = 0
        while (pages < c.pages) {
          const r = await client.engagementList!(c.api_key, c.target_id, {
            since: new Date(c.since),
            cursor,
            pageSize: c.page_size,
          })
          pages++
          if (!r.ok) throw new Error(r.message)
          listed += r.page.members.length
          total = r.page.total ?? total
          for (const m of r.page.members) {
            const id = (m.remoteId && byRemote.get(m.remoteId)) || byEmail.get(m.email.toLowerCase())
            const e = m.engagement
            if (id)
              reads.set(id, {
                id,
                engaged: e.engaged,
                opens: e.opens ?? null,
                clicks: e.clicks ?? null,
                clicked: e.clicks === undefined && e.clickRate !== undefined ? e.clickRate > 0 : null,
              })
          }
          if (!r.page.next) {
            complete = true
            total = total ?? listed
            break
          }
          if (reads.size === c.readers.length) {
            complete = true
            break
          }
          cursor = r.page.next
        }
        const payload = JSON.stringify([...reads.values()])
        f.clientMs += performance.now() - t1
        pagesThisRun += pages
        const t2 = performance.now()
        const done = (
          await db.query<{ r: { read: number } }>(
            'select public.finish_esp_engagement_list($1, $2::jsonb, $3, $4, $5) as r',
            [c.list_read_id, payload, pages, complete, total],
          )
        ).rows[0]!.r
        const ms = performance.now() - t2
        f.finishMs += ms
        f.longestFinishMs = Math.max(f.longestFinishMs, ms)
        f.read += done.read
        f.pages += pages
      }
    }
    runWallMs = Math.max(runWallMs, pagesThisRun * PAGE_LATENCY_MS)
    if (!claimedAny) {
      f.runs--
      break
    }
    // The next run of the job, 10 minutes later on the budget's clock.
    await db.query(
      "update private.esp_request_log set sent_at = sent_at - interval '10 minutes' where key_fingerprint = $1",
      [fp],
    )
    await db.query(
      "update private.esp_key_pauses set paused_until = paused_until - interval '10 minutes' where key_fingerprint = $1",
      [fp],
    )
  }
  f.requests = counter.requests
  f.minutesToRead = JOB_EVERY_MIN * Math.max(f.runs, 1) + runWallMs / 60_000
  return f
}
