// The auth email templates in supabase/templates: GoTrue's Go-template variables render, values are
// HTML-escaped, and the text part keeps the link readable.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { htmlToText, renderTemplate } from './emails'
import { supabaseDir } from '../db/migrate'

const vars = {
  ConfirmationURL:
    'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http%3A%2F%2F127.0.0.1%3A5173',
  Token: '123456',
  TokenHash: 'abc',
  SiteURL: 'http://127.0.0.1:5173',
  Email: 'reader@example.test',
  NewEmail: 'new@example.test',
  RedirectTo: 'http://127.0.0.1:5173',
  Data: { full_name: 'Ada <Admin>' },
}

describe('template rendering', () => {
  it('substitutes GoTrue variables and .Data keys, HTML-escaped', () => {
    const out = renderTemplate(
      '<a href="{{ .ConfirmationURL }}">{{.Email}}</a> {{ .Data.full_name }} {{ .Unknown }}',
      vars,
    )
    expect(out).toBe(
      '<a href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=signup&amp;redirect_to=http%3A%2F%2F127.0.0.1%3A5173">reader@example.test</a> Ada &lt;Admin&gt; ',
    )
  })

  it('derives a text part with the link written out', () => {
    const text = htmlToText(
      '<html><head><style>p{}</style></head><body><h1>Hi</h1><p>Go <a href="http://x.test/?a=1&amp;b=2">here</a></p></body></html>',
    )
    expect(text).toBe('Hi\nGo here: http://x.test/?a=1&b=2')
  })

  it.each(['confirmation', 'recovery', 'magic_link', 'email_change', 'reauthentication', 'invite'])(
    'the %s template is branded and leaves no placeholder behind',
    async (name) => {
      const template = await readFile(path.join(supabaseDir, 'templates', `${name}.html`), 'utf8')
      const html = renderTemplate(template, vars)
      expect(html).toContain('Growletter')
      expect(html).not.toContain('{{')
      if (name === 'reauthentication') expect(html).toContain('123456')
      else expect(html).toContain('href="http://127.0.0.1:54321/auth/v1/verify?token=abc&amp;type=signup')
    },
  )
})
