// Shared by the end-to-end function tests: visitors with their own IP, invoke results with status and body
// (errors included), and the dev mailbox's JSON API.
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js'
import ws from 'ws'
import type { Backend } from '../server'

export type Message = { id: string; to: string; subject: string; text: string; html: string }

let ipCounter = 0

export const uniqueEmail = (label: string) =>
  `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`

/** A browser's client; each gets its own IP so one test's per-IP limits never touch another's. */
export function visitor(backend: Backend, ip = `198.51.100.${++ipCounter % 250}`): SupabaseClient {
  return createClient(backend.apiUrl, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    global: { headers: { 'x-forwarded-for': ip } },
  })
}

export function serviceClient(backend: Backend): SupabaseClient {
  return createClient(backend.apiUrl, backend.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  })
}

/** `functions.invoke`, with the status and JSON body of non-2xx answers as the SPA would read them. */
export async function invoke(client: SupabaseClient, name: string, body: unknown, headers?: Record<string, string>) {
  const { data, error } = await client.functions.invoke(name, { body: body as Record<string, unknown>, headers })
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response
    return { status: res.status, body: await res.json() }
  }
  if (error) throw error
  return { status: 200, body: data }
}

/** The messages to `email`: the mailbox filters them (`?to=`, the same case-insensitive match as below), so a wait
 * that polls does not fetch and parse every message the file has sent so far each time. */
export async function inbox(backend: Backend, email: string): Promise<Message[]> {
  const res = await fetch(`${backend.mailboxUrl}/api/messages?to=${encodeURIComponent(email)}`)
  return ((await res.json()) as Message[]).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()))
}

export async function waitForEmail(backend: Backend, email: string, count = 1, matches = (_m: Message) => true) {
  for (let i = 0; i < 100; i++) {
    const messages = (await inbox(backend, email)).filter(matches)
    if (messages.length >= count) return messages
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no email for ${email}`)
}
