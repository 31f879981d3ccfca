// Emails look like the product and offer only what the app accepts (issue 23, point 9): the auth templates and
// the functions' layout use the app's primary green (src/index.css), never the old purple; no auth email offers
// a one-time code, because no screen of the app takes one (links only). The reauthentication email is the one
// whose whole content is a code; the app never asks for it (it uses aal2 instead), so it is left as the platform's.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { buttonHtml, renderLayout } from './email-layout'

const root = path.resolve(import.meta.dirname, '../../..')
const css = readFileSync(path.join(root, 'src/index.css'), 'utf8')
const primary = /--color-primary:\s*(#[0-9a-f]{6})/i.exec(css)![1]!.toLowerCase()
const primaryHover = /--color-primary-hover:\s*(#[0-9a-f]{6})/i.exec(css)![1]!.toLowerCase()
const templatesDir = path.join(root, 'supabase/templates')
const templates = readdirSync(templatesDir).filter((f) => f.endsWith('.html'))

describe('emails in the product’s colours', () => {
  it('the functions’ layout and buttons use the app’s primary colour', () => {
    const { html } = renderLayout({
      preheader: 'p',
      heading: 'h',
      bodyHtml: buttonHtml('https://x.test', 'Go'),
      bodyText: 't',
      footer: 'f',
    })
    expect(html.toLowerCase()).toContain(primary)
    expect(html.toLowerCase()).not.toContain('#6d28d9')
  })

  it.each(templates)('%s uses the app’s greens and no purple', (file) => {
    const html = readFileSync(path.join(templatesDir, file), 'utf8').toLowerCase()
    expect(html.includes(primary) || html.includes(primaryHover)).toBe(true)
    expect(html).not.toMatch(/#6d28d9|#7c3aed|#8b5cf6/)
  })

  it.each(templates.filter((f) => f !== 'reauthentication.html'))('%s offers a link, never a code', (file) => {
    const html = readFileSync(path.join(templatesDir, file), 'utf8')
    expect(html).not.toContain('{{ .Token }}')
    expect(html).not.toMatch(/enter this code/i)
    expect(html).toContain('{{ .ConfirmationURL }}')
  })
})
