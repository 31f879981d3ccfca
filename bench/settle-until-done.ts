/**
 * Runs the scheduled settlement job's own command back to back until a run settles nothing, while the advertiser's
 * own requests (a transaction that locks their wallet, every 50 ms) are timed beside it. Shared by the settlement and
 * engaged-pay benches: both ask how long matured rows take and whether the app's requests waited meanwhile.
 */
import type { Db } from '../embedded-backend/db/database'

const PROBE_EVERY_MS = 50

export async function settleUntilDone(db: Db, advertiser: string) {
  const command = (
    await db.query<{ command: string }>("select command from cron.job where jobname = 'settle-matured-holds'")
  ).rows[0]!.command
  const probes: number[] = []
  let settling = true
  const prober = (async () => {
    while (settling) {
      const t0 = performance.now()
      await db.transaction(async (tx) => {
        await tx.query('select private.lock_wallet($1)', [advertiser])
      })
      probes.push(performance.now() - t0)
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS))
    }
  })()
  let runs = 0
  let longestRunMs = 0
  const started = performance.now()
  try {
    for (;;) {
      const t0 = performance.now()
      const settled = await db.transaction(async (tx) => Number(Object.values((await tx.query(command)).rows[0]!)[0]))
      longestRunMs = Math.max(longestRunMs, performance.now() - t0)
      runs++
      if (settled === 0) break
      // Let waiting requests in between runs, as the scheduler's 5-second gap would (without waiting 5 s here).
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    settling = false
    await prober
  }
  return { runs, longestRunMs, totalMs: performance.now() - started, probes }
}
