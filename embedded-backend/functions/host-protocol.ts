/**
 * Messages between the Deno host (host.ts) and a function's worker (host-worker.ts). Plain data only:
 * they cross the worker boundary by structured clone, bodies as transferred ArrayBuffers.
 */
export type WorkerRequest =
  | { type: 'load'; moduleUrl: string }
  | {
      type: 'request'
      id: number
      method: string
      url: string
      headers: [string, string][]
      body: ArrayBuffer | null
      remoteAddr: string
    }

export type WorkerReply =
  | { type: 'loaded' }
  | { type: 'response'; id: number; status: number; headers: [string, string][]; body: ArrayBuffer }
  /** id 0: the module failed to load. */
  | { type: 'failed'; id: number; message: string }

/** The line the host prints on stdout once it listens; the Node side waits for it. */
export const READY_PREFIX = 'growletter-functions-host listening on port '
