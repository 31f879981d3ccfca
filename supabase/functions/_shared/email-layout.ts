/**
 * Growletter's branded email frame: a table layout with inline styles (what mail clients render), a hidden
 * preheader, and a plain-text twin for clients that show text only. Callers supply the inner parts.
 */
// The app's primary green (src/index.css --color-primary), so an email looks like the product it comes from.
const BRAND = '#15803d'

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** A call-to-action button that survives Outlook (a link styled as a block, not a <button>). */
export function buttonHtml(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="display:inline-block;background:${BRAND};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:8px">${escapeHtml(label)}</a>`
}

/** A plain text link, for the quieter choice beside a button (decline beside confirm). */
export function linkHtml(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="color:#4b5563;text-decoration:underline">${escapeHtml(label)}</a>`
}

export type LayoutParts = {
  /** Shown by inboxes next to the subject. */
  preheader: string
  heading: string
  /** Trusted HTML built with escapeHtml. */
  bodyHtml: string
  bodyText: string
  footer: string
}

export function renderLayout({ preheader, heading, bodyHtml, bodyText, footer }: LayoutParts): {
  html: string
  text: string
} {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2937">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f7;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:${BRAND};padding:20px 28px;color:#ffffff;font-size:20px;font-weight:700;letter-spacing:.3px">Growletter</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(heading)}</h1>
${bodyHtml}
</td></tr>
<tr><td style="padding:18px 28px;background:#fafafa;color:#6b7280;font-size:12px;line-height:1.5">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`
  const text = `${heading}\n\n${bodyText.trim()}\n\n--\n${footer}\nGrowletter\n`
  return { html, text }
}
