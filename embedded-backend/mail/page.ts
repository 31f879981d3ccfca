/**
 * The dev mailbox page: received emails on the left, the selected one on the right. The HTML body is
 * shown in a sandboxed iframe (no scripts, no same-origin access) whose links open in the top window,
 * so a person can click a confirmation link just as in a real mail client.
 */
import type { StoredMessage } from './store'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Links in the email open in the top window; the base tag goes into the head so the doctype stays first. */
function withTopTarget(html: string): string {
  const base = '<base target="_top">'
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + base) : base + html
}

function viewer(message: StoredMessage): string {
  const body = message.html
    ? `<iframe title="Email body" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
         srcdoc="${esc(withTopTarget(message.html))}"></iframe>`
    : `<pre>${esc(message.text)}</pre>`
  return `<article>
    <h2>${esc(message.subject || '(no subject)')}</h2>
    <dl><dt>From</dt><dd>${esc(message.from)}</dd><dt>To</dt><dd>${esc(message.to)}</dd>
    <dt>Date</dt><dd>${esc(new Date(message.date).toLocaleString('en-GB'))}</dd></dl>
    ${body}
    <details><summary>Text part</summary><pre>${esc(message.text)}</pre></details>
  </article>`
}

export function mailboxPage(
  messages: StoredMessage[],
  selected?: StoredMessage,
  links: { espUrl?: string } = {},
): string {
  const items = messages
    .map(
      (m) => `<li${m.id === selected?.id ? ' aria-current="true"' : ''}><a href="/?id=${encodeURIComponent(m.id)}">
        <strong>${esc(m.subject || '(no subject)')}</strong><span>${esc(m.to)}</span>
        <time datetime="${esc(m.date)}">${esc(new Date(m.date).toLocaleTimeString('en-GB'))}</time></a></li>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Growletter dev mailbox (${messages.length})</title>
<style>
  body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1f2937;display:grid;grid-template-columns:minmax(16rem,24rem) 1fr;height:100vh}
  header{grid-column:1/-1;display:flex;justify-content:space-between;align-items:center;padding:.5rem 1rem;background:#065f46;color:#fff}
  header h1{font-size:1rem;margin:0} button{cursor:pointer}
  nav{overflow:auto;border-right:1px solid #e5e7eb} ul{list-style:none;margin:0;padding:0}
  li a{display:grid;padding:.6rem 1rem;border-bottom:1px solid #f3f4f6;color:inherit;text-decoration:none}
  li[aria-current] a{background:#ecfdf5} li span,li time{color:#6b7280;font-size:12px}
  main{overflow:auto;padding:1rem} dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;color:#4b5563}
  dd{margin:0} iframe{width:100%;height:60vh;border:1px solid #e5e7eb;border-radius:6px} pre{white-space:pre-wrap}
  body{grid-template-rows:auto 1fr}
</style></head>
<body>
<header><h1>Growletter dev mailbox</h1>
<span>${links.espUrl ? `<a href="${esc(links.espUrl)}" style="color:#fff;margin-right:1rem">ESP sandbox</a>` : ''}<button type="button" onclick="fetch('/api/messages',{method:'DELETE'}).then(()=>location.assign('/'))">Delete all</button></span></header>
<nav aria-label="Messages"><ul>${items || '<li><p style="padding:1rem">No emails yet.</p></li>'}</ul></nav>
<main>${selected ? viewer(selected) : '<p>Select an email.</p>'}</main>
</body></html>`
}
