/**
 * HTTP load from `wrk` (Debian's package), for the benchmarks that compare the backend over HTTP with the driver.
 * A browser's CPU is not on the server; on a 2-core machine a Node client (node:http in a worker thread) took about
 * as much CPU as the backend it measured, so the ratio measured the client too. wrk, written in C, costs a fraction
 * of that. Without wrk the benchmarks fall back to their Node client and say so.
 */
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined

export type WrkRound = { done: number; errors: number; ms: number; p50Ms: number; p99Ms: number }

/**
 * A wrk script from the body of its `request` function (Lua; `n` counts requests from 0, one wrk thread) and the
 * headers every request carries. Its `done` prints one line the round parser reads.
 */
export function wrkScript(headers: Record<string, string>, requestBody: string) {
  const base = Object.entries(headers)
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ')
  return `
local n = 0
local base = { ${base} }
request = function()
  local i = n
  n = n + 1
  local headers = {}
  for k, v in pairs(base) do headers[k] = v end
  ${requestBody}
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("ROUND %d %d %d %d %d\\n", summary.requests, e.connect + e.read + e.write + e.status + e.timeout,
    summary.duration, latency:percentile(50), latency:percentile(99)))
end
`
}

/** Runs wrk with `script` against `url`: one thread, `connections` at once, for `seconds` (whole seconds). */
export function wrkRound(url: string, script: string, connections: number, seconds: number): Promise<WrkRound> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'growletter-wrk-'))
  const file = path.join(dir, 'load.lua')
  writeFileSync(file, script)
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '-s', file, url]
  return new Promise((resolve, reject) => {
    execFile('wrk', args, (error, stdout) => {
      const match = /ROUND (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(stdout)
      if (error || !match) return reject(error ?? new Error(`wrk printed no figures: ${stdout}`))
      const [requests, errors, us, p50, p99] = match.slice(1).map(Number) as [number, number, number, number, number]
      resolve({ done: requests - errors, errors, ms: us / 1000, p50Ms: p50 / 1000, p99Ms: p99 / 1000 })
    })
  })
}
