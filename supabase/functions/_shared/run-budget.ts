/**
 * How long one run of a scheduled function may work. Hosted Supabase's Edge Functions limits
 * (https://supabase.com/docs/guides/functions/limits, read 2026-11-28):
 * - wall clock: 150 s on the free plan, 400 s on paid plans (how long a worker lives, its requests included);
 * - request idle timeout: 150 s (a function that has not answered by then gets the caller a 504);
 * - CPU time: 2 s per request (time on the CPU; waiting for I/O does not count);
 * - memory: 256 MB.
 * So a run must answer well inside 150 s whatever the plan, and whatever its providers do. A run claims new work only
 * during its first CLAIM_MS; at ABORT_MS every request still in flight is aborted and recorded as a retryable
 * failure. What it did not claim stays queued for the next run (each job runs every minute). ABORT_MS also stays under
 * the shortest lease a claim takes (claim_esp_deliveries: 2 minutes), so no row is claimed twice while one run works.
 * Pure TypeScript (no Deno): bench/edge-limits.ts reads the same figures.
 */
export const HOSTED_EDGE_LIMITS = {
  wallClockFreeMs: 150_000,
  wallClockPaidMs: 400_000,
  idleTimeoutMs: 150_000,
  cpuMsPerRequest: 2_000,
  memoryBytes: 256 * 1024 * 1024,
} as const

export const CLAIM_MS = 60_000
export const ABORT_MS = 110_000

export type RunBudget = {
  /** Whether the run may still claim more work. */
  canClaim(): boolean
  /** Aborts at ABORT_MS: every request of the run listens to it. */
  signal: AbortSignal
}

export function runBudget(claimMs = CLAIM_MS, abortMs = ABORT_MS, now = () => performance.now()): RunBudget {
  const start = now()
  return { canClaim: () => now() - start < claimMs, signal: AbortSignal.timeout(abortMs) }
}

/** A fetch whose every request ends at its own timeout or when the run's time is up, whichever comes first. */
export function budgetedFetch(budget: RunBudget, timeoutMs: number): typeof fetch {
  return (input, init) =>
    fetch(input, { ...init, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), budget.signal]) })
}
