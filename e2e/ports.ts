/**
 * Where the end-to-end stack listens: away from `npm run dev`'s ports so both can run at once. `E2E_PORT_OFFSET`
 * (e.g. 100) moves them all, so two checkouts of the repository can run their suites side by side.
 * All below 32768, outside Linux's range for the local ports of outgoing connections (32768–60999 by default): in
 * that range any connection another suite opens meanwhile may hold the port when the stack binds it (EADDRINUSE
 * met twice while other suites ran beside it).
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) || 0

export const E2E = {
  apiPort: 24331 + offset,
  mailPort: 24334 + offset,
  smtpPort: 24335 + offset,
  appPort: 4174 + offset,
  /** The suite's own PostgreSQL cluster, when PostgreSQL is installed (e2e/serve.ts). */
  postgresPort: 25440 + offset,
  /** axe-core's minified build, which e2e/serve.ts puts beside the test build of the app (e2e/pages/axe.ts). */
  axeScript: 'e2e-axe.min.js',
  get apiUrl() {
    return `http://127.0.0.1:${this.apiPort}`
  },
  get mailboxUrl() {
    return `http://127.0.0.1:${this.mailPort}`
  },
  get appUrl() {
    return `http://127.0.0.1:${this.appPort}`
  },
}
