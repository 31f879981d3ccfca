/** What a benchmark's figures were measured on: printed beside them (ARCHITECTURE "Budgets"). */
import os from 'node:os'

/** `load 1.23 0.98 0.75 (1/5/15 min), 2 × Intel(R) Xeon(R) …` */
export function machineLoad(): string {
  const cpus = os.cpus()
  return `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (1/5/15 min), ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`
}
