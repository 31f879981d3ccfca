/**
 * One edge function's isolate (a Web Worker inside the Deno host; Deno code, checked with `deno check`).
 * Hosted Supabase runs each function in its own isolate and hands requests to the handler the function
 * registered with `Deno.serve`; this worker does the same: it replaces `Deno.serve` with a stub that only
 * records the handler, imports the function module, then answers request messages from host.ts with it.
 * A fresh worker re-reads every module from disk, which is how edits (including to `_shared/`) reload.
 */
import type { WorkerReply, WorkerRequest } from './host-protocol.ts'

// This module runs as a worker; the checker sees a window scope, so name the worker scope's two members.
const scope = self as unknown as {
  postMessage(message: unknown, options: { transfer: Transferable[] }): void
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null
}

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>

let handler: Handler | undefined
const finished = Promise.withResolvers<void>()

// Deno.serve(handler) | Deno.serve(options, handler) | Deno.serve({ ...options, handler }): keep the handler,
// open no socket. The returned object is shaped like Deno.HttpServer so code that awaits `finished` works.
function serveStub(...args: unknown[]): Deno.HttpServer<Deno.NetAddr> {
  const [first, second] = args
  const found =
    typeof first === 'function'
      ? first
      : typeof second === 'function'
        ? second
        : (first as { handler?: unknown } | undefined)?.handler
  if (typeof found !== 'function') throw new TypeError('Deno.serve needs a handler function')
  handler = found as Handler
  return {
    addr: { transport: 'tcp', hostname: '127.0.0.1', port: 0 },
    finished: finished.promise,
    shutdown: () => Promise.resolve(finished.resolve()),
    ref() {},
    unref() {},
    [Symbol.asyncDispose]: () => Promise.resolve(finished.resolve()),
  }
}
Object.defineProperty(Deno, 'serve', { value: serveStub, configurable: true, writable: true })
// One function must not end the process every other function runs in (the hosted runtime refuses it too).
Object.defineProperty(Deno, 'exit', {
  value: () => {
    throw new Error('Deno.exit is not supported in edge functions')
  },
  configurable: true,
  writable: true,
})

// An error a function forgets to await must not end the isolate; log it as the hosted runtime does.
globalThis.addEventListener('unhandledrejection', (event) => {
  event.preventDefault()
  console.error('unhandled rejection:', event.reason)
})

const post = (reply: WorkerReply, transfer: Transferable[] = []) => scope.postMessage(reply, { transfer })

scope.onmessage = async ({ data }: MessageEvent<WorkerRequest>) => {
  if (data.type === 'load') {
    try {
      await import(data.moduleUrl)
      if (!handler) throw new Error(`${data.moduleUrl} did not call Deno.serve(handler)`)
      post({ type: 'loaded' })
    } catch (error) {
      post({ type: 'failed', id: 0, message: describe(error) })
    }
    return
  }
  try {
    const request = new Request(data.url, {
      method: data.method,
      headers: data.headers,
      body: data.body && data.method !== 'GET' && data.method !== 'HEAD' ? data.body : null,
    })
    const info = {
      remoteAddr: { transport: 'tcp' as const, hostname: data.remoteAddr, port: 0 },
      completed: Promise.resolve(),
    }
    const response = await handler!(request, info)
    if (!(response instanceof Response)) throw new TypeError('The function did not return a Response')
    const body = await response.arrayBuffer()
    post({ type: 'response', id: data.id, status: response.status, headers: [...response.headers], body }, [body])
  } catch (error) {
    post({ type: 'failed', id: data.id, message: describe(error) })
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error)
}
