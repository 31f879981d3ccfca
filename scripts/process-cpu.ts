/**
 * The CPU time a command's whole process tree used, read from /proc once a second (Linux; elsewhere it reports
 * nothing and `npm test` falls back on what `time` reports).
 *
 * `time` (and getrusage) counts only the descendants a parent waited for. Chromium's renderer, GPU and network
 * processes are not reaped through the chain back to Playwright, so `time` saw 71 of the 214 CPU-seconds the
 * end-to-end suite used on a quiet machine. Here every process is charged to the tracked command it descends from
 * (found through its parents while the tree is whole, and remembered after it is orphaned), and a process's own
 * user + system time is read while it runs. A process that lives less than a second between two reads is missed;
 * its parent's reaped time is not added, as that would count the ones that were read twice.
 */
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

type Seen = { ppid: number; seconds: number; comm: string }

export class ProcessCpu {
  private readonly roots = new Map<number, string>()
  /** `pid:starttime` (a pid may be reused) → the label it is charged to, or '' for none. */
  private readonly owner = new Map<string, string>()
  private readonly seconds = new Map<string, number>()
  private readonly comm = new Map<string, string>()
  /** The CPU time processes already running at the first read had used before it (not ours to count). */
  private readonly before = new Map<string, number>()
  private scans = 0
  private timer: NodeJS.Timeout | undefined
  readonly available = os.platform() === 'linux'

  track(pid: number | undefined, label: string) {
    if (pid) this.roots.set(pid, label)
  }

  start(intervalMs = 1000) {
    if (!this.available) return
    this.scan()
    this.timer = setInterval(() => this.scan(), intervalMs)
    this.timer.unref()
  }

  stop() {
    clearInterval(this.timer)
    if (this.available) this.scan()
  }

  /** CPU-seconds charged to `label` so far. */
  of(label: string): number {
    let total = 0
    for (const [key, who] of this.owner) if (who === label) total += this.seconds.get(key) ?? 0
    return total
  }

  /** CPU-seconds charged to `label`, by process name. */
  byComm(label: string): Map<string, number> {
    const total = new Map<string, number>()
    for (const [key, who] of this.owner) {
      if (who !== label) continue
      const name = this.comm.get(key) ?? '?'
      total.set(name, (total.get(name) ?? 0) + (this.seconds.get(key) ?? 0))
    }
    return total
  }

  /** CPU-seconds of processes named `comm` (e.g. postgres) charged to no tracked command. */
  untracked(comm: string): number {
    let total = 0
    for (const [key, who] of this.owner)
      if (!who && this.comm.get(key) === comm) total += (this.seconds.get(key) ?? 0) - (this.before.get(key) ?? 0)
    return total
  }

  private scan() {
    const now = new Map<number, Seen & { key: string }>()
    for (const name of readdirSync('/proc')) {
      const pid = Number(name)
      if (!Number.isInteger(pid)) continue
      let stat: string
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      } catch {
        continue // ended between the listing and the read
      }
      const close = stat.lastIndexOf(')')
      const fields = stat.slice(close + 2).split(' ')
      // After the command name: state, ppid, …; utime and stime are fields 14 and 15, starttime 22 (1-based).
      const key = `${pid}:${fields[19]}`
      now.set(pid, {
        key,
        ppid: Number(fields[1]),
        seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
        comm: stat.slice(stat.indexOf('(') + 1, close),
      })
    }
    const ownerOf = (pid: number): string => {
      const seen = now.get(pid)
      if (!seen) return ''
      const known = this.owner.get(seen.key)
      if (known !== undefined) return known
      const label = this.roots.get(pid) ?? (seen.ppid > 1 ? ownerOf(seen.ppid) : '')
      // Only a charge is remembered for good: an untracked process may still be adopted by nothing later.
      if (label) this.owner.set(seen.key, label)
      return label
    }
    const first = this.scans++ === 0
    for (const [pid, seen] of now) {
      if (first) this.before.set(seen.key, seen.seconds)
      const label = ownerOf(pid)
      if (!label && !this.owner.has(seen.key)) this.owner.set(seen.key, '')
      this.seconds.set(seen.key, seen.seconds)
      this.comm.set(seen.key, seen.comm)
    }
  }
}
