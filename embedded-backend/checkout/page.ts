/**
 * The local test checkout page: what Stripe Checkout shows (merchant, amount, the payer's email) and
 * three ways out — Pay (the test card is charged), "Pay with a declined card" (Stripe's decline message,
 * and the page stays), and the back link to the merchant (cancel_url). Plain HTML forms: no script needed.
 */
import type { LocalSession } from './store'

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export const DECLINE_MESSAGE = 'Your card was declined.'
export const MERCHANT = 'Growletter'

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1f36;background:#f6f9fc}
  .test{background:#ffde92;color:#5c4100;text-align:center;font-size:13px;padding:6px}
  main{max-width:920px;margin:0 auto;padding:32px 20px;display:grid;gap:32px}
  @media(min-width:760px){main{grid-template-columns:1fr 1fr;padding-top:64px}}
  a{color:#635bff}.back{display:inline-block;margin-bottom:24px;text-decoration:none;font-size:14px}
  .merchant{font-weight:600;font-size:15px;margin:0 0 6px;color:#4f566b}
  .amount{font-size:36px;font-weight:700;margin:0 0 18px}
  .item{display:flex;justify-content:space-between;font-size:14px;border-top:1px solid #e3e8ee;padding-top:14px}
  form.pay{background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(50,50,93,.1);padding:24px;display:grid;gap:14px}
  label{font-size:13px;color:#4f566b;display:grid;gap:6px}
  input{font:inherit;padding:10px 12px;border:1px solid #d5dbe1;border-radius:6px;background:#f7fafc;color:#1a1f36}
  button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:12px;cursor:pointer}
  .primary{background:#635bff;color:#fff}.secondary{background:#fff;color:#c0123c;border:1px solid #f0b4c0}
  .error{background:#fdecef;color:#a3112d;border-radius:6px;padding:10px 12px;font-size:14px;margin:0}
  .note{font-size:12px;color:#697386;margin:0}
`

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head>
<body><div class="test" role="note">Test mode: local checkout. No real payment is made.</div>${body}</body>
</html>`
}

export function checkoutPage(session: LocalSession, productName: string, error?: string): string {
  const total = money(session.amount_total, session.currency)
  const email = session.customer_email ?? ''
  return layout(
    `Pay ${MERCHANT}`,
    `<main>
  <section aria-label="Order summary">
    <a class="back" href="${escape(session.cancel_url)}" data-testid="checkout-cancel">&larr; Cancel and return to ${MERCHANT}</a>
    <p class="merchant">Pay ${MERCHANT}</p>
    <p class="amount" data-testid="checkout-amount">${escape(total)}</p>
    <div class="item"><span>${escape(productName)}</span><span>${escape(total)}</span></div>
  </section>
  <form class="pay" method="post" action="/checkout/${encodeURIComponent(session.id)}/pay" aria-label="Payment">
    ${error ? `<p class="error" role="alert" data-testid="checkout-error">${escape(error)}</p>` : ''}
    <label>Email<input name="email" type="email" value="${escape(email)}" readonly data-testid="checkout-email"></label>
    <label>Card information<input value="4242 4242 4242 4242  ·  12 / 34  ·  123" readonly aria-describedby="card-note"></label>
    <p class="note" id="card-note">A test card: nothing is charged anywhere. Session ${escape(session.id)}</p>
    <button class="primary" type="submit" data-testid="checkout-pay">Pay ${escape(total)}</button>
    <button class="secondary" type="submit" formaction="/checkout/${encodeURIComponent(session.id)}/decline" data-testid="checkout-decline">Pay with a declined card</button>
  </form>
</main>`,
  )
}

/** A session that can no longer be paid (completed, expired or unknown), with a way back. */
export function closedPage(title: string, message: string, back?: { href: string; label: string }): string {
  return layout(
    title,
    `<main><section><h1>${escape(title)}</h1><p>${escape(message)}</p>${
      back ? `<p><a href="${escape(back.href)}">${escape(back.label)}</a></p>` : ''
    }</section></main>`,
  )
}
