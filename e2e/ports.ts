/**
 * Where the end-to-end stack listens: away from `npm run dev`'s ports so both can run at once. `E2E_PORT_OFFSET`
 * (e.g. 100) moves them all, so two checkouts of the repository can run their suites side by side.
 */
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) || 0

export const E2E = {
  apiPort: 54331 + offset,
  mailPort: 54334 + offset,
  smtpPort: 54335 + offset,
  appPort: 4174 + offset,
  /** The suite's own PostgreSQL cluster, when PostgreSQL is installed (e2e/serve.ts). */
  postgresPort: 55440 + offset,
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
