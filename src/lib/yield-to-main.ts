/**
 * Ends the current task: what follows runs in a new one, once the browser has had the chance to handle input
 * and paint. Start-up work split this way makes several short tasks instead of one long one (Lighthouse's
 * total blocking time counts what each task spends over 50 ms).
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
