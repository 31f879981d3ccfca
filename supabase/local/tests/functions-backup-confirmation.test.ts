// send-backup-confirmation end to end: supabase-js through the real gateway, the auth admin API, the
// dev mailbox, and following the emailed link the way a person does.
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ws from 'ws'
import { startBackend } from '../server'

type Message = { to: string; subject: string; text: string; html: string }
let backend: Awaited<ReturnType<typeof startBackend>>
let admin: SupabaseClient
let ipCounter = 0

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true })
  admin = createClient(backend.apiUrl, backend.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  })
})
afterAll(async () => {
  await backend?.close()
})

function visitor(ip = `198.51.100.${++ipCounter}`): SupabaseClient {
  return createClient(backend.apiUrl, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
    global: { headers: { 'x-forwarded-for': ip } },
  })
}

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`

async function backup(client: SupabaseClient, body: unknown) {
  const { data, error } = await client.functions.invoke('send-backup-confirmation', { body: body as object })
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response
    return { status: res.status, body: await res.json() }
  }
  if (error) throw error
  return { status: 200, body: data }
}

async function accountEmails(email: string): Promise<Message[]> {
  const res = await fetch(`${backend.mailboxUrl}/api/messages`)
  return ((await res.json()) as Message[]).filter(
    (m) => m.to.toLowerCase().includes(email) && m.subject === 'Confirm your Growletter account' && m.text.includes('new link'),
  )
}

async function waitForAccountEmail(email: string): Promise<Message> {
  for (let i = 0; i < 100; i++) {
    const [message] = await accountEmails(email)
    if (message) return message
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no backup confirmation email for ${email}`)
}

/** The function answers before its background work ends: give that work time to send (or not). */
const settle = () => new Promise((r) => setTimeout(r, 600))

async function createUser(email: string, confirmed: boolean) {
  const { data, error } = await admin.auth.admin.createUser({ email, password: 'a-long-password-1', email_confirm: confirmed })
  if (error) throw error
  return data.user
}

describe('send-backup-confirmation', () => {
  it('emails an unconfirmed account a fresh link that confirms the address when followed', async () => {
    const email = uniqueEmail('unconfirmed')
    const user = await createUser(email, false)
    expect(await backup(visitor(), { email })).toEqual({ status: 200, body: { success: true } })
    const message = await waitForAccountEmail(email)
    expect(message.html).toContain('Growletter')
    const link = message.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0]
    expect(link).toBeDefined()
    const followed = await fetch(link!, { redirect: 'manual' })
    expect(followed.status).toBeGreaterThanOrEqual(300)
    expect(followed.status).toBeLessThan(400)
    expect(followed.headers.get('location')).toContain('http://127.0.0.1:5173/dashboard')
    const { data } = await admin.auth.admin.getUserById(user.id)
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })

  it('answers the same for a confirmed account and an unknown address, and sends nothing', async () => {
    const confirmed = uniqueEmail('confirmed')
    await createUser(confirmed, true)
    const unknown = uniqueEmail('nobody')
    expect(await backup(visitor(), { email: confirmed })).toEqual({ status: 200, body: { success: true } })
    expect(await backup(visitor(), { email: unknown })).toEqual({ status: 200, body: { success: true } })
    await settle()
    expect(await accountEmails(confirmed)).toHaveLength(0)
    expect(await accountEmails(unknown)).toHaveLength(0)
  })

  it('refuses a malformed address with 400, and GET with 405', async () => {
    const res = await backup(visitor(), { email: 'nope' })
    expect(res).toEqual({ status: 400, body: { success: false, error: 'Please enter a valid email address' } })
    const get = await fetch(`${backend.apiUrl}/functions/v1/send-backup-confirmation`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` },
    })
    expect(get.status).toBe(405)
  })

  it('limits one address to 3 requests an hour, whether or not the account exists', async () => {
    const email = uniqueEmail('limited')
    for (let i = 0; i < 3; i++) expect((await backup(visitor(), { email })).status).toBe(200)
    const res = await backup(visitor(), { email })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('Too many requests. Please wait a few minutes and try again.')
  })
})
