/**
 * The Deno side of the local functions runner (Deno code, checked with `deno check`): one long-lived process
 * for every edge function. It listens on an ephemeral loopback port and routes `/<name>/...` to that
 * function's worker (host-worker.ts), which it starts on first use. Before each request it fingerprints the
 * functions folder; when any file changed, every worker is replaced, so edits reload without a restart.
 * Errors become 500 JSON and never end this process.
 *
 * Ends when its stdin ends, that is when the backend that started it exits (even killed with SIGKILL).
 *
 * Env: GROWLETTER_FUNCTIONS_DIR (absolute), GROWLETTER_FUNCTION_TIMEOUT_MS; the rest is the functions' env.
 */
import { READY_PREFIX, type WorkerReply, type WorkerRequest } from './host-protocol.ts'

const functionsDir = Deno.env.get('GROWLETTER_FUNCTIONS_DIR')!
const timeoutMs = Number(Deno.env.get('GROWLETTER_FUNCTION_TIMEOUT_MS') ?? 150_000)
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/

type Pending = { resolve: (reply: WorkerReply) => void }
type FunctionWorker = {
  worker: Worker
  ready: Promise<void>
  pending: Map<number, Pending>
  /** Replaced after an edit: ends once its in-flight requests are answered. */
  retiring: boolean
}

const workers = new Map<string, FunctionWorker>()
let fingerprint = ''
let nextId = 1

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const workerError = () =>
  json(500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' })

/**
 * Every file's path, size and mtime under the functions folder. Synchronous on purpose: it runs before every
 * request, and the async `readDir`/`stat` ops cost ~10 ms of CPU a scan of this repository's ~100 files (an op
 * dispatch each) against ~1 ms for the same calls made synchronously.
 */
function folderFingerprint(dir: string): string {
  const parts: string[] = []
  const walk = (folder: string) => {
    for (const entry of Deno.readDirSync(folder)) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const full = `${folder}/${entry.name}`
      if (entry.isDirectory) walk(full)
      else {
        const info = Deno.statSync(full)
        parts.push(`${full}:${info.size}:${info.mtime?.getTime()}`)
      }
    }
  }
  walk(dir)
  return parts.sort().join('|')
}

/** Takes an outdated worker out of service without failing the requests it is still answering. */
function retireWorker(name: string, fw: FunctionWorker) {
  if (workers.get(name) === fw) workers.delete(name)
  fw.retiring = true
  if (fw.pending.size === 0) stopWorker(name, fw)
}

function stopWorker(name: string, fw: FunctionWorker) {
  fw.worker.terminate()
  for (const [id, p] of fw.pending) p.resolve({ type: 'failed', id, message: 'worker stopped' })
  fw.pending.clear()
  if (workers.get(name) === fw) workers.delete(name)
}

function startWorker(name: string): FunctionWorker {
  const worker = new Worker(new URL('./host-worker.ts', import.meta.url), { type: 'module', name })
  const fw: FunctionWorker = { worker, ready: Promise.resolve(), pending: new Map(), retiring: false }
  const loaded = Promise.withResolvers<void>()
  worker.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
    if (data.type === 'loaded') return loaded.resolve()
    if (data.type === 'failed' && data.id === 0) return loaded.reject(new Error(data.message))
    fw.pending.get(data.id)?.resolve(data)
    fw.pending.delete(data.id)
    if (fw.retiring && fw.pending.size === 0) stopWorker(name, fw)
  }
  // An uncaught error inside the isolate ends that worker only; the next request starts a fresh one.
  worker.onerror = (event) => {
    event.preventDefault()
    console.error(`${name}: ${event.message}`)
    loaded.reject(new Error(event.message))
    stopWorker(name, fw)
  }
  const moduleUrl = new URL(`file://${functionsDir}/${name}/index.ts`).href
  worker.postMessage({ type: 'load', moduleUrl } satisfies WorkerRequest)
  fw.ready = loaded.promise
  workers.set(name, fw)
  return fw
}

async function route(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const name = url.pathname.split('/')[1] ?? ''
  if (!NAME.test(name) || !(await isFile(`${functionsDir}/${name}/index.ts`))) {
    return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })
  }
  const current = folderFingerprint(functionsDir)
  if (current !== fingerprint) {
    fingerprint = current
    for (const [n, fw] of workers) retireWorker(n, fw)
  }
  const fw = workers.get(name) ?? startWorker(name)
  try {
    await fw.ready
  } catch (error) {
    console.error(`${name} failed to load: ${(error as Error).message}`)
    stopWorker(name, fw)
    return workerError()
  }
  const id = nextId++
  const body = request.body ? await request.arrayBuffer() : null
  const message: WorkerRequest = {
    type: 'request',
    id,
    method: request.method,
    url: request.url,
    headers: [...request.headers],
    body,
    remoteAddr: request.headers.get('x-real-ip') ?? '127.0.0.1',
  }
  const reply = await new Promise<WorkerReply>((resolve) => {
    const timer = setTimeout(() => {
      console.error(`${name} did not answer within ${timeoutMs} ms`)
      stopWorker(name, fw)
    }, timeoutMs)
    fw.pending.set(id, {
      resolve: (r) => {
        clearTimeout(timer)
        resolve(r)
      },
    })
    fw.worker.postMessage(message, body ? [body] : [])
  })
  if (reply.type !== 'response') {
    console.error(`${name}: ${reply.type === 'failed' ? reply.message : 'no response'}`)
    return workerError()
  }
  return new Response(reply.status === 204 || reply.status === 304 ? null : reply.body, {
    status: reply.status,
    headers: reply.headers,
  })
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile
  } catch {
    return false
  }
}

/**
 * The host lives exactly as long as the backend that started it: the backend holds the write end of this
 * process's stdin, and the kernel closes it when the backend exits in any way, `kill -9` included. Reading
 * stdin to its end is therefore the one signal no crash can skip (a signal handler or a parent-pid poll
 * would miss a killed parent or notice it late).
 */
async function exitWithParent() {
  const buffer = new Uint8Array(64)
  try {
    while ((await Deno.stdin.read(buffer)) !== null) {
      // The backend never writes: anything read is ignored.
    }
  } catch {
    // A broken pipe is the same news as EOF.
  }
  Deno.exit(0)
}
void exitWithParent()

fingerprint = folderFingerprint(functionsDir)
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`${READY_PREFIX}${port}`),
  },
  (request) =>
    route(request).catch((error) => {
      console.error('host error:', error)
      return workerError()
    }),
)
