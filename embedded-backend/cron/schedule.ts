/**
 * When a pg_cron job is due. pg_cron reads three kinds of schedule: five cron fields (minute precision,
 * evaluated in UTC — pg_cron's default cron.timezone is GMT), the @-nicknames, and '[1-59] seconds'
 * intervals. croner parses the first two; intervals are counted from the job's previous start, as pg_cron does.
 */
import { Cron } from 'croner'

export type Schedule =
  | { kind: 'cron'; next: (after: Date) => Date | null }
  | { kind: 'interval'; seconds: number }
  | { kind: 'reboot' }

export function parseSchedule(text: string): Schedule {
  const s = text.trim()
  const interval = /^(\d{1,2}) seconds?$/i.exec(s)
  if (interval) {
    const seconds = Number(interval[1])
    if (seconds < 1 || seconds > 59) throw new Error(`invalid schedule: ${text}`)
    return { kind: 'interval', seconds }
  }
  if (/^@reboot$/i.test(s)) return { kind: 'reboot' }
  // pg_cron writes the month's last day as '$'; croner writes it 'L'.
  const fields = s.split(/\s+/)
  const pattern =
    fields.length === 5
      ? [fields[0], fields[1], fields[2]!.replace(/\$/g, 'L'), fields[3], fields[4]].join(' ')
      : s.toLowerCase()
  const cron = new Cron(pattern, { paused: true, timezone: 'Etc/UTC', mode: s.startsWith('@') ? 'auto' : '5-part' })
  return { kind: 'cron', next: (after) => cron.nextRun(after) }
}
