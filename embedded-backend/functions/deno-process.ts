/**
 * Starts and supervises the one Deno process (host.ts) that runs every edge function. Started on first use,
 * restarted on the next use if it ever exits, stopped by `stop()`. Deno comes from the `deno` npm package,
 * so nothing is downloaded; `npm:` imports resolve from the repository's node_modules (the functions'
 * deno.json sets `nodeModulesDir: "manual"`).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { READY_PREFIX } from './host-protocol.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
export const repoRoot = path.resolve(here, '../..')

export type DenoHostOptions = {
  functionsDir: string
  /** The functions' environment (SUPABASE_URL, keys, SMTP, ...). Nothing else of this process leaks in. */
  env: Record<string, string>
  timeoutMs: number
  log: (line: string) => void
}

/** The Deno binary the `deno` package installed (its bin.cjs wrapper would add a Node process per run). */
export function denoBinary(): string {
  const pkg = createRequire(import.meta.url).resolve('deno/package.json')
  const binary = path.join(path.dirname(pkg), process.platform === 'win32' ? 'deno.exe' : 'deno')
  if (!existsSync(binary)) throw new Error(`Deno binary missing at ${binary}: run npm install`)
  return binary
}

/** The deno.json the functions run with: the folder's own, else the product's supabase/functions one. */
export function denoConfig(functionsDir: string): string {
  const own = path.join(functionsDir, 'deno.json')
  return existsSync(own) ? own : path.join(repoRoot, 'supabase/functions/deno.json')
}

export function createDenoHost(options: DenoHostOptions) {
  let child: ChildProcess | undefined
  let starting: Promise<number> | undefined

  function start(): Promise<number> {
    const readPaths = [repoRoot, options.functionsDir].join(',')
    const proc = spawn(
      denoBinary(),
      [
        'run',
        '--no-prompt',
        '--no-lock',
        `--config=${denoConfig(options.functionsDir)}`,
        '--allow-net',
        '--allow-env',
        `--allow-read=${readPaths}`,
        path.join(here, 'host.ts'),
      ],
      {
        cwd: repoRoot,
        // stdin is a pipe this process never writes to: when this process ends, even by SIGKILL, the kernel
        // closes it and the host, reading it to EOF, exits too (host.ts exitWithParent).
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          ...inheritedEnv(),
          ...options.env,
          NO_COLOR: '1',
          GROWLETTER_FUNCTIONS_DIR: options.functionsDir,
          GROWLETTER_FUNCTION_TIMEOUT_MS: String(options.timeoutMs),
        },
      },
    )
    child = proc
    return new Promise<number>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) => {
        if (child === proc) {
          child = undefined
          starting = undefined
        }
        reject(new Error(`The functions host exited before it was ready (code ${code}, signal ${signal})`))
      }
      proc.once('exit', onExit)
      proc.once('error', reject)
      createInterface({ input: proc.stderr! }).on('line', (line) => options.log(line))
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        if (line.startsWith(READY_PREFIX)) resolve(Number(line.slice(READY_PREFIX.length)))
        else options.log(line)
      })
    })
  }

  return {
    /** The running host's process id (diagnostics and tests). */
    pid: (): number | undefined => child?.pid,
    /** The host's port, starting the process if it is not running. */
    port(): Promise<number> {
      if (!starting) {
        starting = start()
        starting.catch(() => {
          starting = undefined
        })
      }
      return starting
    },
    async stop(): Promise<void> {
      const proc = child
      child = undefined
      starting = undefined
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
      proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), 2_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** What Deno itself needs from this process's environment: where to cache, where home is. */
function inheritedEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'DENO_DIR', 'LANG', 'TZ']
  return Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])))
}
