/**
 * Auth emails rendered from supabase/templates with the subset of GoTrue's Go-template syntax the
 * templates use (`{{ .ConfirmationURL }}`, `{{ .Token }}`, `{{ .Data.full_name }}`…), the same files
 * hosted Supabase is configured with. Each email gets a text part derived from its HTML.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { BackendContext } from '../context'
import { supabaseDir } from '../db/migrate'
import { httpError } from './errors'
import type { AuthSettings } from './settings'

export type EmailKind = 'confirmation' | 'recovery' | 'magic_link' | 'email_change' | 'reauthentication' | 'invite'

const DEFAULT_SUBJECTS: Record<EmailKind, string> = {
  confirmation: 'Confirm your signup',
  recovery: 'Reset your password',
  magic_link: 'Your magic link',
  email_change: 'Confirm email change',
  reauthentication: 'Confirm reauthentication',
  invite: 'You have been invited to Growletter',
}

export type TemplateVars = {
  ConfirmationURL?: string
  Token?: string
  TokenHash?: string
  SiteURL: string
  Email: string
  NewEmail?: string
  RedirectTo?: string
  Data?: Record<string, unknown>
}

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')

/** `{{ .Name }}` and `{{ .Data.key }}`, HTML-escaped as Go's html/template would; unknown names render empty. */
export function renderTemplate(template: string, vars: TemplateVars): string {
  return template.replace(/\{\{\s*\.([A-Za-z]+)(?:\.([A-Za-z0-9_]+))?\s*\}\}/g, (_, name: string, key?: string) => {
    const value = key ? (name === 'Data' ? vars.Data?.[key] : undefined) : (vars as Record<string, unknown>)[name]
    return value === undefined || value === null || typeof value === 'object' ? '' : escapeHtml(String(value))
  })
}

const decodeEntities = (s: string) =>
  s
    .replace(/&nbsp;/g, ' ')
    .replace(/&middot;/g, '·')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

/** A readable text alternative: links become "label: url", blocks become lines. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(head|style|script)[\s\S]*?<\/\1>/gi, '')
      .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) => {
        const text = label.replace(/<[^>]+>/g, '').trim()
        return text && text !== href ? `${text}: ${href}` : href
      })
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|h[1-6]|tr|li|table)>/gi, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim()
}

async function loadTemplate(settings: AuthSettings, kind: EmailKind) {
  const configured = settings.templates[kind]?.content_path
  // content_path is relative to the project root (the folder holding supabase/), as for the Supabase CLI.
  const file = configured
    ? path.resolve(supabaseDir, '..', configured)
    : path.join(supabaseDir, 'templates', `${kind}.html`)
  return { html: await readFile(file, 'utf8'), subject: settings.templates[kind]?.subject ?? DEFAULT_SUBJECTS[kind] }
}

export async function sendAuthEmail(
  ctx: BackendContext,
  settings: AuthSettings,
  kind: EmailKind,
  to: string,
  vars: TemplateVars,
) {
  try {
    const { html: template, subject } = await loadTemplate(settings, kind)
    const html = renderTemplate(template, vars)
    await ctx.mailer.send({ to, subject: renderTemplate(subject, vars), html, text: htmlToText(html) })
  } catch (error) {
    console.error(`[auth] sending the ${kind} email failed:`, error)
    throw httpError(500, 'unexpected_failure', `Error sending ${kind.replace('_', ' ')} email`)
  }
}
