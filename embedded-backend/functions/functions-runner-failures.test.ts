// The functions runner when functions misbehave: hangs, isolate crashes, Deno.exit, and the Deno host
// process dying. Each must cost one 500 answer at most, never the next request.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDenoHost } from './deno-process'
import { createFunctionsHandler } from './index'
import { fixtures, request, runnerContext } from '../testing/functions-helpers'

const logs: string[] = []

describe('functions runner failures', () => {
  let strict: ReturnType<typeof createFunctionsHandler>

  beforeAll(() => {
    strict = createFunctionsHandler(runnerContext(), {
      functionsDir: fixtures,
      timeoutMs: 500,
      log: (line) => logs.push(line),
    })
  })
  afterAll(async () => {
    await strict?.close()
  })

  const ok = (name: string) => strict(request(name, { query: new URLSearchParams('ok=1') }))

  it('answers 500 when a function passes its wall-clock limit, then serves it again', async () => {
    const res = await strict(request('hangs'))
    expect(res.status).toBe(500)
    expect(logs.join('\n')).toContain('hangs did not answer within 500 ms')
    expect(String((await ok('hangs')).body)).toBe('answered')
  })

  it('answers 500 when an uncaught error ends the isolate, then serves from a fresh one', async () => {
    expect((await strict(request('crashes'))).status).toBe(500)
    expect(String((await ok('crashes')).body)).toBe('fresh isolate')
  })

  it('refuses Deno.exit with a 500 instead of ending every function, and serves again', async () => {
    expect((await strict(request('exits'))).status).toBe(500)
    expect(logs.join('\n')).toContain('Deno.exit is not supported in edge functions')
    expect(String((await ok('exits')).body)).toBe('back')
    expect((await strict(request('echo'))).status).toBe(200)
  })
})

describe('functions host process', () => {
  it('starts again on the next call after the Deno process dies', async () => {
    const host = createDenoHost({ functionsDir: fixtures, env: {}, timeoutMs: 5_000, log: () => {} })
    try {
      await host.port()
      const pid = host.pid()!
      process.kill(pid, 'SIGKILL')
      for (let i = 0; i < 100 && host.pid() === pid; i++) await new Promise((r) => setTimeout(r, 20))
      expect(host.pid()).toBeUndefined()
      const port = await host.port()
      expect(host.pid()).not.toBe(pid)
      const res = await fetch(`http://127.0.0.1:${port}/open-echo`)
      expect(await res.json()).toEqual({ open: true })
    } finally {
      await host.stop()
    }
  })

  it('ends with the process that started it, even when that process is killed with SIGKILL', async () => {
    const starter = path.join(import.meta.dirname, '../testing/fixtures/host-parent/start-host.ts')
    const parent = spawn(process.execPath, ['--import', 'tsx', starter, fixtures], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let hostPid = 0
    try {
      hostPid = await new Promise<number>((resolve, reject) => {
        createInterface({ input: parent.stdout! }).on('line', (line) => {
          if (line.startsWith('host-pid ')) resolve(Number(line.slice('host-pid '.length)))
        })
        parent.once('exit', (code) => reject(new Error(`the starter exited first (code ${code})`)))
      })
      expect(isRunning(hostPid)).toBe(true)
      parent.kill('SIGKILL')
      // No signal reaches the host: only its stdin closing with the killed parent tells it to go.
      await vi.waitFor(() => expect(isRunning(hostPid)).toBe(false), { timeout: 20_000, interval: 50 })
    } finally {
      if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL')
      if (hostPid && isRunning(hostPid)) process.kill(hostPid, 'SIGKILL')
    }
  })
})

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
