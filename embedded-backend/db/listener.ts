/**
 * A LISTEN that outlives its connection. PostgREST re-opens its listener when the connection drops (a server
 * restart, a failover, an idle connection killed) and reloads its caches then, since a notification sent while
 * nobody listened is lost. Before this, a dropped connection left the REST layer deaf to `notify pgrst` until
 * the backend restarted.
 */
import pg from 'pg'

export type Listener = {
  /** Called with each notification's payload. */
  onNotify(payload: string): void
  /** Called once listening again after the connection dropped: what was sent meanwhile is lost, so reload. */
  onReconnect?(): void
}

/** Waits before the attempt'th reconnection: 100 ms doubling, at most 5 s (PostgREST doubles to 32 s). */
export const reconnectDelayMs = (attempt: number) => Math.min(100 * 2 ** attempt, 5000)

/** Resolves once listening (rejects if the first connection fails), with the function that stops it. */
export async function listenWithReconnect(
  connectionString: string,
  channel: string,
  listener: Listener,
): Promise<() => Promise<void>> {
  let stopped = false
  let current: pg.Client | undefined
  let timer: NodeJS.Timeout | undefined

  const open = async () => {
    const client = new pg.Client({ connectionString })
    // An error ends the connection; 'end' then reconnects.
    client.on('error', () => {})
    client.on('notification', (n) => n.channel === channel && listener.onNotify(n.payload ?? ''))
    client.on('end', () => {
      if (!stopped && current === client) retry(0)
    })
    try {
      await client.connect()
      await client.query(`listen "${channel.replace(/"/g, '""')}"`)
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
    current = client
  }

  const retry = (attempt: number) => {
    current = undefined
    timer = setTimeout(() => {
      open().then(
        () => (stopped ? current?.end().catch(() => {}) : listener.onReconnect?.()),
        () => !stopped && retry(attempt + 1),
      )
    }, reconnectDelayMs(attempt))
  }

  await open()
  return async () => {
    stopped = true
    clearTimeout(timer)
    await current?.end().catch(() => {})
  }
}
