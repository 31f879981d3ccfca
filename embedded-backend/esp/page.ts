/**
 * The sandbox's page (`/esp/`): per provider, the demo key and lists, any forced failure still pending, the
 * subscribers delivered with the fields the provider received (consent evidence, confirmation flags, source),
 * then the latest requests. The dev mailbox shows what was emailed; this shows what went to the ESPs.
 */
import { ESP_SANDBOX_KEYS, SANDBOX_PROVIDERS, SANDBOX_TARGETS, type SandboxProvider } from './common'
import type { RecordedRequest, SandboxSubscriber } from './store'

const esc = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
const NAMES: Record<SandboxProvider, string> = {
  beehiiv: 'beehiiv',
  kit: 'Kit',
  mailchimp: 'Mailchimp',
  mailerlite: 'MailerLite',
}
/** The fields that carry consent and source, per provider; the rest is in the request log. */
const SHOWN: Record<SandboxProvider, string[]> = {
  beehiiv: ['double_opt_override', 'utm_source', 'utm_medium', 'utm_campaign', 'referring_site'],
  kit: ['state', 'referrer'],
  mailchimp: ['status_if_new', 'ip_opt', 'timestamp_opt', 'tags'],
  mailerlite: ['status', 'opted_in_at', 'optin_ip', 'groups'],
}
const when = (iso: string) => new Date(iso).toISOString().replace('T', ' ').slice(0, 19) + ' UTC'
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))

function section(
  provider: SandboxProvider,
  subscribers: SandboxSubscriber[],
  fault?: { status: number; remaining: number; retryAfterSeconds?: number },
) {
  const targets = SANDBOX_TARGETS[provider]
  const listName = (id: string) => (id ? (targets.find((t) => t.id === id)?.name ?? id) : '(no form yet)')
  const rows = subscribers
    .map(
      (s) => `<tr><td>${esc(s.email)}</td><td>${esc(listName(s.target))}</td>
        <td><dl>${SHOWN[provider]
          .filter((k) => s.fields[k] !== undefined)
          .map((k) => `<dt>${esc(k)}</dt><dd>${esc(show(s.fields[k]))}</dd>`)
          .join('')}</dl></td>
        <td>${s.engagement.opens} opens, ${s.engagement.clicks} clicks${s.engagement.machine_opens || s.engagement.machine_clicks ? ` (machines: ${s.engagement.machine_opens ?? 0} opens, ${s.engagement.machine_clicks ?? 0} clicks)` : ''}</td><td><time datetime="${esc(s.updatedAt)}">${esc(when(s.updatedAt))}</time></td></tr>`,
    )
    .join('')
  return `<section aria-labelledby="h-${provider}">
  <h2 id="h-${provider}">${NAMES[provider]} <small>(${subscribers.length} delivered)</small></h2>
  <p>Key <code>${esc(ESP_SANDBOX_KEYS[provider])}</code>; lists: ${targets.map((t) => `${esc(t.name)} <code>${esc(t.id)}</code>`).join(', ')}.
  ${fault ? `<strong class="fault">Next ${fault.remaining} request(s) answer ${fault.status}${fault.retryAfterSeconds !== undefined ? ` (Retry-After ${fault.retryAfterSeconds} s)` : ''}.</strong>` : ''}</p>
  ${rows ? `<table><thead><tr><th>Email</th><th>List</th><th>Fields received</th><th>Engagement</th><th>Last change</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No deliveries yet.</p>'}
</section>`
}

export function espPage({
  subscribers,
  requests,
  faults,
  mailboxUrl,
}: {
  subscribers: SandboxSubscriber[]
  requests: RecordedRequest[]
  faults: Map<SandboxProvider, { status: number; remaining: number; retryAfterSeconds?: number }>
  mailboxUrl?: string
}): string {
  const log = requests
    .map(
      (
        r,
      ) => `<tr><td><time datetime="${esc(r.receivedAt)}">${esc(when(r.receivedAt))}</time></td><td>${esc(NAMES[r.provider as SandboxProvider] ?? r.provider)}</td>
      <td><code>${esc(r.method)} ${esc(r.path)}</code></td><td>${esc(r.auth ?? '(none)')}</td><td class="s${String(r.status)[0]}">${r.status}</td></tr>`,
    )
    .join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Growletter local ESP sandbox (${subscribers.length})</title>
<style>
  body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1f2937}
  header{display:flex;justify-content:space-between;align-items:center;padding:.5rem 1rem;background:#065f46;color:#fff}
  header h1{font-size:1rem;margin:0} main{padding:0 1rem 2rem} button{cursor:pointer}
  table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #e5e7eb}
  dl{display:grid;grid-template-columns:max-content 1fr;gap:0 .75rem;margin:0} dt{color:#6b7280} dd{margin:0;word-break:break-all}
  .fault{color:#92400e} .s4,.s5{color:#b91c1c} .s2{color:#065f46} code{font-size:12px} small{color:#6b7280;font-weight:normal}
</style></head>
<body>
<header><h1>Growletter local ESP sandbox</h1>
<span>${mailboxUrl ? `<a href="${esc(mailboxUrl)}" style="color:#fff;margin-right:1rem">Dev mailbox</a>` : ''}<button type="button" onclick="fetch('/esp/_api/requests',{method:'DELETE'}).then(()=>location.reload())">Delete all</button></span></header>
<main>
<p>What the ESP clients delivered to the sandboxed beehiiv, Kit, Mailchimp and MailerLite. Force failures with
<code>curl -X POST ${'$'}API/esp/_control/fail -d '{"provider":"kit","status":429,"count":2,"retryAfterSeconds":5}'</code> (see the README).</p>
${SANDBOX_PROVIDERS.map((p) =>
  section(
    p,
    subscribers.filter((s) => s.provider === p),
    faults.get(p),
  ),
).join('\n')}
<section aria-labelledby="h-log"><h2 id="h-log">Latest requests</h2>
${log ? `<table><thead><tr><th>Received</th><th>Provider</th><th>Request</th><th>Credential</th><th>Answer</th></tr></thead><tbody>${log}</tbody></table>` : '<p>No requests yet.</p>'}
</section>
</main>
</body></html>`
}
