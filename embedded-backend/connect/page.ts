/**
 * The local onboarding page, standing in for Stripe's hosted Express onboarding: what Stripe would collect (identity,
 * bank account, tax form), shown as already filled with test data, and two ways on — "Finish onboarding" and
 * "Simulate a rejected account" — each ending at the link's return_url. Plain HTML forms, no script; one column that
 * fits a phone, labelled landmarks, visible focus.
 */
import type { LocalAccount } from './stripe-objects'

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export const PLATFORM = 'Growletter'

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1f36;background:#f6f9fc}
  .test{background:#ffde92;color:#5c4100;text-align:center;font-size:13px;padding:6px}
  main{max-width:520px;margin:0 auto;padding:32px 20px}
  h1{font-size:24px;margin:0 0 8px}p{line-height:1.5}
  .lead{color:#4f566b;margin:0 0 24px}
  section.card{background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(50,50,93,.1);padding:24px;display:grid;gap:16px}
  dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:8px 16px;font-size:14px}dt{color:#4f566b}dd{margin:0;overflow-wrap:anywhere}
  form{display:grid;gap:12px;margin:0}
  button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:12px;cursor:pointer;width:100%}
  button:focus-visible,a:focus-visible{outline:3px solid #0a2540;outline-offset:2px}
  .primary{background:#635bff;color:#fff}.secondary{background:#fff;color:#a3112d;border:1px solid #d6455d}
  .note{font-size:13px;color:#596171;margin:0}a{color:#4f46e5}
`

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head>
<body><div class="test" role="note">Test mode: local Stripe Connect. No real account is opened and no money moves.</div>${body}</body>
</html>`
}

export function onboardingPage(account: LocalAccount, action: string, returnUrl: string): string {
  const rejected = account.requirements.disabled_reason?.startsWith('rejected.') ?? false
  const state = rejected
    ? 'Rejected: this account can no longer receive payouts.'
    : account.payouts_enabled
      ? 'Onboarding finished: payouts are enabled.'
      : 'Not finished yet.'
  return layout(
    `Set up payouts with ${PLATFORM}`,
    `<main>
  <h1>Set up payouts with ${PLATFORM}</h1>
  <p class="lead">${PLATFORM} partners with Stripe to pay you. Stripe would now ask for your identity, a bank account and a
  tax form; in this local stand-in they are filled with test data.</p>
  <section class="card" aria-labelledby="details-title">
    <h2 id="details-title" style="font-size:17px;margin:0">Your account</h2>
    <dl>
      <dt>Account</dt><dd data-testid="connect-account">${escape(account.id)}</dd>
      <dt>Email</dt><dd>${escape(account.email ?? '—')}</dd>
      <dt>Bank account</dt><dd>STRIPE TEST BANK ••••6789</dd>
      <dt>Status</dt><dd data-testid="connect-status">${escape(state)}</dd>
    </dl>
    ${
      rejected
        ? `<p><a href="${escape(returnUrl)}">Return to ${PLATFORM}</a></p>`
        : `<form method="post" action="${escape(action)}/finish" aria-label="Onboarding">
      <button class="primary" type="submit" data-testid="connect-finish">Finish onboarding</button>
      <button class="secondary" type="submit" formaction="${escape(action)}/reject" data-testid="connect-reject">Simulate a rejected account</button>
      <p class="note">Each button ends onboarding and takes you back to ${PLATFORM}.</p>
    </form>`
    }
  </section>
</main>`,
  )
}

/** A link that cannot be used (unknown), with what to do instead. */
export function closedPage(title: string, message: string): string {
  return layout(title, `<main><h1>${escape(title)}</h1><p>${escape(message)}</p></main>`)
}
