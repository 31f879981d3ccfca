/** Where the end-to-end stack listens: away from `npm run dev`'s ports so both can run at once. */
export const E2E = {
  apiPort: 54331,
  mailPort: 54334,
  smtpPort: 54335,
  appPort: 4174,
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
