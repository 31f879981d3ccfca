// send-backup-confirmation end to end: supabase-js through the real gateway, the auth admin API, the
// dev mailbox, and following the emailed link the way a person does.
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBackend, type Backend } from '../../../embedded-backend/server'
import {
  inbox,
  invoke,
  serviceClient,
  uniqueEmail,
  visitor,
  waitForEmail,
  type Message,
} from '../../../embedded-backend/testing/functions-e2e-helpers'

let backend: Backend
let admin: SupabaseClient

beforeAll(async () => {
  backend = await startBackend({ port: 0, dataDir: null, seed: true })
  admin = serviceClient(backend)
})
afterAll(async () => {
  await backend?.close()
})

const backup = (body: unknown) => invoke(visitor(backend), 'send-backup-confirmation', body)

// Auth's own confirmation email has the same subject; ours is the one that speaks of a new link.
const isBackupEmail = (m: Message) => m.subject === 'Confirm your Growletter account' && m.text.includes('new link')

async function accountEmails(email: string): Promise<Message[]> {
  return (await inbox(backend, email)).filter(isBackupEmail)
}

async function waitForAccountEmail(email: string): Promise<Message> {
  return (await waitForEmail(backend, email, 1, isBackupEmail))[0]
}

/** The function answers before its background work ends: give that work time to send (or not). */
const settle = () => new Promise((r) => setTimeout(r, 600))

async function createUser(email: string, confirmed: boolean) {
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: 'a-long-password-1',
    email_confirm: confirmed,
  })
  if (error) throw error
  return data.user
}

describe('send-backup-confirmation', () => {
  it('emails an unconfirmed account a fresh link that confirms the address when followed', async () => {
    const email = uniqueEmail('unconfirmed')
    const user = await createUser(email, false)
    expect(await backup({ email })).toEqual({ status: 200, body: { success: true } })
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
    expect(await backup({ email: confirmed })).toEqual({ status: 200, body: { success: true } })
    expect(await backup({ email: unknown })).toEqual({ status: 200, body: { success: true } })
    await settle()
    expect(await accountEmails(confirmed)).toHaveLength(0)
    expect(await accountEmails(unknown)).toHaveLength(0)
  })

  it('refuses a malformed address with 400, and GET with 405', async () => {
    const res = await backup({ email: 'nope' })
    expect(res).toEqual({ status: 400, body: { success: false, error: 'Please enter a valid email address' } })
    const get = await fetch(`${backend.apiUrl}/functions/v1/send-backup-confirmation`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` },
    })
    expect(get.status).toBe(405)
  })

  it('limits one address to 3 requests an hour, whether or not the account exists', async () => {
    const email = uniqueEmail('limited')
    for (let i = 0; i < 3; i++) expect((await backup({ email })).status).toBe(200)
    const res = await backup({ email })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('Too many requests. Please wait a few minutes and try again.')
  })
})
