/**
 * The backend the soak bench (bench/soak.ts) runs as a child process, so it can `kill -9` it and start it again on
 * the same ports and database, as a crashed `npm run backend` would be restarted. Like `npm run backend` but
 * configured by the bench: SOAK_DATABASE_URL, SOAK_PORT, SOAK_MAIL_PORT, SOAK_SMTP_PORT; the scheduler runs, and
 * visitors' addresses come from x-forwarded-for (loopback only). Prints one `soak-backend-ready {json}` line.
 */
import { startBackend } from '../embedded-backend/server'

const backend = await startBackend({
  port: Number(process.env.SOAK_PORT),
  mailPort: Number(process.env.SOAK_MAIL_PORT),
  smtpPort: Number(process.env.SOAK_SMTP_PORT),
  databaseUrl: process.env.SOAK_DATABASE_URL,
  dataDir: null,
  seed: true,
  clientIpHeader: 'x-forwarded-for',
  cron: true,
})
const { apiUrl, mailboxUrl, anonKey, serviceRoleKey, stripeWebhookSecret } = backend
console.log(
  `soak-backend-ready ${JSON.stringify({ apiUrl, mailboxUrl, anonKey, serviceRoleKey, stripeWebhookSecret })}`,
)
const stop = () => {
  backend.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
