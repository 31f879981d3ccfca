/**
 * `npx tsx scripts/cpu-of.ts <command…>`: runs one command (e.g. one lane's command that `npm test` prints) and
 * prints its wall time and the CPU-seconds its whole process tree used, by process name (scripts/process-cpu.ts):
 * how a change to one lane is measured without running the others.
 */
import { spawn } from 'node:child_process'
import { ProcessCpu } from './process-cpu'

const cmd = process.argv.slice(2)
if (!cmd.length) throw new Error('usage: tsx scripts/cpu-of.ts <command…>')
const cpu = new ProcessCpu()
cpu.start(500)
const t0 = Date.now()
const child = spawn(cmd[0]!, cmd.slice(1), { stdio: 'inherit' })
cpu.track(child.pid, 'run')
child.on('close', (code) => {
  cpu.stop()
  const wall = (Date.now() - t0) / 1000
  const byName = [...cpu.byComm('run')].sort((a, b) => b[1] - a[1])
  console.log(
    `\n${cmd.join(' ')}\n  exit ${code}, ${wall.toFixed(1)} s wall, ${cpu.of('run').toFixed(1)} CPU-seconds: ` +
      byName.map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', '),
  )
  process.exit(code ?? 1)
})
