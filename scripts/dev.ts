/**
 * `npm run dev`: the embedded backend (API on 54321, mailbox on 54324) in this process, `.env.local`
 * written, then Vite on 5173. Ctrl-C stops everything; if Vite exits, the backend stops with it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { startForeground } from '../embedded-backend/cli'

let vite: ChildProcess | null = null

await startForeground(async () => {
  if (vite && vite.exitCode === null) {
    vite.kill('SIGTERM')
    await new Promise((resolve) => vite!.once('exit', resolve))
  }
})

// Vite's own script, run by this Node: through `npx` (npm, then a shell) a SIGTERM to this process stopped npm but
// left Vite running on 5173; this child is Vite itself, so stopping it here stops it.
const viteBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js')
vite = spawn(process.execPath, [viteBin, '--host', '127.0.0.1', '--port', '5173', '--strictPort'], { stdio: 'inherit' })
vite.once('exit', (code) => {
  // Vite stopped on its own (or failed to start): take the backend down too.
  process.kill(process.pid, 'SIGTERM')
  process.exitCode = code ?? 0
})
