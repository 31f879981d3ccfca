/**
 * Runs the scheduled settlement job's own command until a run settles nothing, while the advertiser's own requests (a
 * transaction that locks their wallet, every 50 ms) are timed beside it. Shared by the settlement and engaged-pay
 * benches: both ask how long matured rows take and whether the app's requests waited meanwhile.
 *
 * "Waited" is judged against the same requests in the same run with nothing settling (`idle`), as the budgets are
 * ratios within one run: on a loaded two-core machine a lock taken alone already waits tens of milliseconds at p99.
 * The first `cadenceRuns` runs go on the scheduler's own 5-second cadence (`cadence`: what a request meets in
 * production), the rest back to back (`probes`: the worst case, and how long the backlog takes without the gaps).
 */
import type { Db } from '../embedded-backend/db/database'

const PROBE_EVERY_MS = 50
const CADENCE_MS = 5000
const IDLE_MS = 5000

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Times the wallet-locking request every 50 ms until `done()` says stop. */
function probeWallet(db: Db, advertiser: string) {
  const probes: number[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const t0 = performance.now()
      await db.transaction(async (tx) => {
        await tx.query('select private.lock_wallet($1)', [advertiser])
      })
      probes.push(performance.now() - t0)
      await pause(PROBE_EVERY_MS)
    }
  })()
  return {
    probes,
    async done() {
      running = false
      await loop
      return probes
    },
  }
}

export async function settleUntilDone(db: Db, advertiser: string, { cadenceRuns = 0 } = {}) {
  const command = (
    await db.query<{ command: string }>("select command from cron.job where jobname = 'settle-matured-holds'")
  ).rows[0]!.command
  const idleProbe = probeWallet(db, advertiser)
  await pause(IDLE_MS)
  const idle = await idleProbe.done()

  let runs = 0
  let longestRunMs = 0
  let cadenceRunsMs = 0
  let finished = false
  const runOnce = async () => {
    const t0 = performance.now()
    const settled = await db.transaction(async (tx) => Number(Object.values((await tx.query(command)).rows[0]!)[0]))
    longestRunMs = Math.max(longestRunMs, performance.now() - t0)
    runs++
    finished = settled === 0
  }

  const cadenceProbe = probeWallet(db, advertiser)
  for (let i = 0; i < cadenceRuns && !finished; i++) {
    const t0 = performance.now()
    await runOnce()
    cadenceRunsMs += performance.now() - t0
    await pause(Math.max(0, CADENCE_MS - (performance.now() - t0)))
  }
  const cadence = await cadenceProbe.done()

  const started = performance.now()
  const backToBack = probeWallet(db, advertiser)
  try {
    while (!finished) {
      await runOnce()
      // Let waiting requests in between runs, as the scheduler's 5-second gap would (without waiting 5 s here).
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    await backToBack.done()
  }
  // totalMs: the runs' own time, as if all ran back to back (the cadence runs without their gaps).
  const totalMs = performance.now() - started + cadenceRunsMs
  return { runs, longestRunMs, totalMs, probes: backToBack.probes, idle, cadence }
}
