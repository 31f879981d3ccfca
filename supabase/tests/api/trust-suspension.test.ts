// Issue 37, "Suspension does not stop money", performed through the running backend's REST API with supabase-js as
// the attackers did, on this run's engine (PGlite, or PostgreSQL with TEST_DATABASE_URL): after an admin suspended
// an advertiser and a publisher, their access tokens issued before the suspension changed price and budget (200),
// created a campaign (201) and a source (201), and the newsletter stayed listed. Now each answers 403 with the
// sentence the account reads, nothing changes, the newsletter leaves the list; reinstated, the same writes succeed.
// The paid-subscriber, settlement and payout sides are in supabase/tests/suspension.test.ts.
import type { SupabaseClient } from '@supabase/supabase-js'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engine, nextIp, startTrustBackend, type TrustBackend } from '../../../embedded-backend/testing/trust-backend'

const DEMO_PASSWORD = 'growletter-demo'
const ADMIN_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const CAMPAIGN = '20000000-0000-4000-a000-000000000001'
const SUSPENDED = 'Your account is suspended. Contact us to appeal.'

let b: TrustBackend
beforeAll(async () => {
  b = await startTrustBackend({ seed: true })
})
afterAll(async () => {
  await b?.close()
})

async function signIn(email: string) {
  const client = b.client(nextIp())
  const { data, error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw error
  return { client, userId: data.session!.user.id }
}

async function adminAtAal2() {
  const { client } = await signIn('admin@growletter.test')
  const { data: factors } = await client.auth.mfa.listFactors()
  const { error } = await client.auth.mfa.challengeAndVerify({
    factorId: factors!.totp[0]!.id,
    code: new TOTP({ secret: Secret.fromBase32(ADMIN_TOTP) }).generate(),
  })
  if (error) throw error
  return client
}

const writes = {
  price: (c: SupabaseClient) =>
    c.from('campaigns').update({ price_per_subscriber: 2.25 }).eq('id', CAMPAIGN).select('id'),
  budget: (c: SupabaseClient) => c.from('campaigns').update({ budget_total: 900 }).eq('id', CAMPAIGN).select('id'),
  campaign: (c: SupabaseClient, advertiserId: string) =>
    c
      .from('campaigns')
      .insert({ advertiser_id: advertiserId, name: 'Suspended letter', budget_total: 10, status: 'pending_review' })
      .select('id'),
  source: (c: SupabaseClient, publisherId: string) =>
    c
      .from('audience_sources')
      .insert({ publisher_id: publisherId, name: 'Suspended source', platform: 'x', status: 'pending_review' })
      .select('id'),
}

const listed = async () => (await b.client(nextIp()).from('campaigns').select('id').eq('id', CAMPAIGN)).data ?? []

describe(`suspension through the REST API (${engine})`, () => {
  it('attack: tokens issued before the suspension change nothing (403, in a sentence); the newsletter leaves the list; reinstated, they write again', async () => {
    const advertiser = await signIn('advertiser@growletter.test')
    const publisher = await signIn('publisher@growletter.test')
    const before = (
      await b.db.query('select price_per_subscriber::text, budget_total::text from public.campaigns where id = $1', [
        CAMPAIGN,
      ])
    ).rows
    expect(await listed()).toEqual([{ id: CAMPAIGN }])

    const admin = await adminAtAal2()
    for (const userId of [advertiser.userId, publisher.userId]) {
      const { error } = await admin.rpc('admin_set_user_suspended', {
        p_user_id: userId,
        p_suspended: true,
        p_reason: 'Bought traffic',
      })
      expect(error).toBeNull()
    }

    for (const attempt of [
      writes.price(advertiser.client),
      writes.budget(advertiser.client),
      writes.campaign(advertiser.client, advertiser.userId),
      writes.source(publisher.client, publisher.userId),
    ]) {
      const { status, error } = await attempt
      expect(status).toBe(403)
      expect(error).toMatchObject({ code: '42501', message: SUSPENDED })
    }
    expect(
      (
        await b.db.query('select price_per_subscriber::text, budget_total::text from public.campaigns where id = $1', [
          CAMPAIGN,
        ])
      ).rows,
    ).toEqual(before)
    const made = await b.db.query(
      "select count(*)::int as n from public.campaigns where name = 'Suspended letter' union all select count(*)::int from public.audience_sources where name = 'Suspended source'",
    )
    expect(made.rows).toEqual([{ n: 0 }, { n: 0 }])
    // The suspended advertiser's newsletter is no longer listed, for visitors or anyone signed in.
    expect(await listed()).toEqual([])
    // Sign-in is refused as before (the auth server reads the same ban).
    await expect(signIn('advertiser@growletter.test')).rejects.toThrow()

    // Honest: reinstated, a new sign-in writes again and the newsletter is back.
    for (const userId of [advertiser.userId, publisher.userId]) {
      const { error } = await admin.rpc('admin_set_user_suspended', {
        p_user_id: userId,
        p_suspended: false,
        p_reason: 'Cleared after review',
      })
      expect(error).toBeNull()
    }
    const again = await signIn('advertiser@growletter.test')
    const pubAgain = await signIn('publisher@growletter.test')
    expect((await writes.budget(again.client)).status).toBe(200)
    expect((await writes.campaign(again.client, again.userId)).status).toBe(201)
    expect((await writes.source(pubAgain.client, pubAgain.userId)).status).toBe(201)
    expect(await listed()).toEqual([{ id: CAMPAIGN }])
  })
})
