/**
 * `npm run dev`: the embedded backend (API on 54321, mailbox on 54324) in this process, `.env.local`
 * written, then Vite on 5173. Ctrl-C stops everything; if Vite exits, the backend stops with it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { startForeground } from '../supabase/local/cli'

let vite: ChildProcess | null = null

await startForeground(async () => {
  if (vite && vite.exitCode === null) {
    vite.kill('SIGTERM')
    await new Promise((resolve) => vite!.once('exit', resolve))
  }
})

vite = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', '5173', '--strictPort'], { stdio: 'inherit' })
vite.once('exit', (code) => {
  // Vite stopped on its own (or failed to start): take the backend down too.
  process.kill(process.pid, 'SIGTERM')
  process.exitCode = code ?? 0
})
