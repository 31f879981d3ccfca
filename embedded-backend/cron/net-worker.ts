/**
 * pg_net's background worker, inside the embedded backend: takes the committed requests of
 * net.http_request_queue (removing them, as pg_net does), performs them with fetch outside any database
 * transaction — a request to this backend's own functions must not wait on the transaction that holds
 * PGlite — and stores each answer, error or timeout in net._http_response under the request's id.
 * Answers are kept 6 hours (pg_net's default pg_net.ttl).
 */
import type { Db } from '../db/database'

type QueuedRequest = {
  id: string
  method: string
  url: string
  headers: Record<string, string>
  body: Uint8Array | null
  timeout_milliseconds: number
}

export type NetWorkerOptions = { db: Db; batchSize?: number; log?: (line: string) => void }

export class NetWorker {
  private ready = false
  private draining: Promise<number> | null = null
  /** A drain that waits for the one in progress and has not begun: later callers join it (it will see their requests). */
  private waiting: Promise<number> | null = null
  private lastPurge = 0

  constructor(private readonly opts: NetWorkerOptions) {}

  /** Performs every queued request (in batches) and resolves with how many it performed. */
  drain(): Promise<number> {
    // One drain at a time; a caller arriving meanwhile waits for it and then drains what came since. Callers
    // arriving while such a drain waits join it: a burst of wake-ups costs one more drain, not one each.
    if (this.waiting) return this.waiting
    // A failed drain (the database away for a moment) does not stop the ones after it.
    const previous = this.draining?.catch(() => 0) ?? Promise.resolve(0)
    const next = previous.then(() => {
      this.waiting = null
      return this.drainAll()
    })
    this.waiting = next
    this.draining = next
    void next
      .catch(() => 0)
      .then(() => {
        if (this.draining === next) this.draining = null
      })
    return next
  }

  /** Resolves when the requests being performed have been answered and stored. */
  async idle(): Promise<void> {
    await this.draining?.catch(() => {})
  }

  private async drainAll(): Promise<number> {
    if (!(await this.isReady())) return 0
    const { db } = this.opts
    let done = 0
    for (;;) {
      const batch = await db.transaction(
        async (tx) =>
          (
            await tx.query<QueuedRequest>(
              `delete from net.http_request_queue where id in (
               select id from net.http_request_queue order by id limit $1 for update skip locked)
             returning id::text as id, method::text as method, url, headers, body, timeout_milliseconds`,
              [this.opts.batchSize ?? 50],
            )
          ).rows,
      )
      if (batch.length === 0) break
      await Promise.all(batch.map((request) => this.perform(request)))
      done += batch.length
    }
    if (Date.now() - this.lastPurge > 60_000) {
      this.lastPurge = Date.now()
      await db.query("delete from net._http_response where created < now() - interval '6 hours'")
    }
    return done
  }

  private async perform(request: QueuedRequest): Promise<void> {
    const started = performance.now()
    let row: unknown[]
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body && request.method !== 'GET' ? Buffer.from(request.body) : undefined,
        signal: AbortSignal.timeout(request.timeout_milliseconds),
      })
      const content = await response.text()
      row = [
        request.id,
        response.status,
        response.headers.get('content-type'),
        JSON.stringify(headersObject(response.headers)),
        content,
        false,
        null,
      ]
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      const message = timedOut
        ? `Timeout of ${request.timeout_milliseconds} ms reached. Total time: ${(performance.now() - started).toFixed(0)} ms`
        : describe(error)
      this.opts.log?.(`[net] request ${request.id} to ${request.url} failed: ${message}`)
      row = [request.id, null, null, null, null, timedOut, message]
    }
    await this.opts.db
      .query(
        `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        row,
      )
      .catch((error: unknown) =>
        this.opts.log?.(`[net] could not store the answer to ${request.id}: ${describe(error)}`),
      )
  }

  private async isReady(): Promise<boolean> {
    if (this.ready) return true
    const r = await this.opts.db.query<{ ok: boolean }>(
      "select to_regclass('net.http_request_queue') is not null as ok",
    )
    this.ready = r.rows[0]?.ok === true
    return this.ready
  }
}

function headersObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, key) => (out[key] = value))
  return out
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } }
  return e.cause?.message ? `${e.message}: ${e.cause.message}` : e.message
}
