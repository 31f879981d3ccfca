// TOTP multi-factor auth (enroll, challenge, verify with a code computed by otpauth, aal2, unenroll) and
// the admin API (service role only), through supabase-js against the real gateway.
import { decodeJwt } from 'jose'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInUser, startAuthTestBackend, type AuthTestBackend } from '../testing/auth-backend'
import { followVerifyLink, latestMail, messagesTo, verifyLinkIn } from '../testing/auth-mailbox'

let backend: AuthTestBackend

beforeAll(async () => {
  backend = await startAuthTestBackend()
})
afterAll(async () => {
  await backend?.close()
})

const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate()

describe('TOTP multi-factor auth', () => {
  it('enrolls, challenges and verifies: the session becomes aal2 with totp in amr; unenroll needs aal2', async () => {
    const { client } = await signedInUser(backend, 'mfa@example.test')
    const { data: enrolled, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    expect(error).toBeNull()
    expect(enrolled).toMatchObject({ type: 'totp', friendly_name: 'Phone' })
    expect(enrolled!.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true)
    expect(enrolled!.totp.uri).toMatch(/^otpauth:\/\/totp\/Growletter:mfa%40example\.test\?/)
    expect(enrolled!.totp.uri).toContain(`secret=${enrolled!.totp.secret}`)

    const factors = await client.auth.mfa.listFactors()
    expect(factors.data?.all).toEqual([
      expect.objectContaining({ id: enrolled!.id, status: 'unverified', factor_type: 'totp' }),
    ])

    const { data: challenge } = await client.auth.mfa.challenge({ factorId: enrolled!.id })
    expect(challenge).toMatchObject({ id: expect.any(String), type: 'totp', expires_at: expect.any(Number) })
    const wrong = await client.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge!.id,
      code: '000000' === codeFor(enrolled!.totp.secret) ? '111111' : '000000',
    })
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })

    const { data: verified, error: verifyError } = await client.auth.mfa.verify({
      factorId: enrolled!.id,
      challengeId: challenge!.id,
      code: codeFor(enrolled!.totp.secret),
    })
    expect(verifyError).toBeNull()
    const claims = decodeJwt(verified!.access_token) as { aal: string; amr: Array<{ method: string }> }
    expect(claims.aal).toBe('aal2')
    expect(claims.amr.map((a) => a.method)).toEqual(['totp', 'password'])
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })

    // A new sign-in starts at aal1 and must step up; at aal1 the verified factor cannot be removed.
    const fresh = backend.client()
    await fresh.auth.signInWithPassword({ email: 'mfa@example.test', password: 'test-password-1' })
    expect((await fresh.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    })
    expect((await fresh.auth.mfa.unenroll({ factorId: enrolled!.id })).error).toMatchObject({
      status: 422,
      code: 'insufficient_aal',
    })

    // The refreshed session keeps aal2.
    const refreshed = await client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2')

    const { data: removed, error: unenrollError } = await client.auth.mfa.unenroll({ factorId: enrolled!.id })
    expect(unenrollError).toBeNull()
    expect(removed).toEqual({ id: enrolled!.id })
    expect((await client.auth.getUser()).data.user?.factors).toEqual([])
  })

  it('refuses a duplicate friendly name and an unknown factor', async () => {
    const { client } = await signedInUser(backend, 'mfa-dupe@example.test')
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Same' })
    expect((await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Same' })).error).toMatchObject({
      status: 422,
      code: 'mfa_factor_name_conflict',
    })
    expect((await client.auth.mfa.challenge({ factorId: '00000000-0000-4000-8000-000000000000' })).error).toMatchObject(
      { status: 404, code: 'mfa_factor_not_found' },
    )
  })
})

describe('admin API', () => {
  it('creates a confirmed user with metadata who can sign in at once', async () => {
    const { data, error } = await backend.admin().auth.admin.createUser({
      email: 'made-by-admin@example.test',
      password: 'admin-made-pw',
      email_confirm: true,
      user_metadata: { full_name: 'Made By Admin' },
      app_metadata: { plan: 'pro' },
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({
      email: 'made-by-admin@example.test',
      user_metadata: { full_name: 'Made By Admin' },
      app_metadata: { provider: 'email', providers: ['email'], plan: 'pro' },
    })
    expect(data.user?.email_confirmed_at).toBeTruthy()
    expect(
      (
        await backend
          .client()
          .auth.signInWithPassword({ email: 'made-by-admin@example.test', password: 'admin-made-pw' })
      ).error,
    ).toBeNull()
    expect((await backend.admin().auth.admin.createUser({ email: 'made-by-admin@example.test' })).error).toMatchObject({
      status: 422,
      code: 'email_exists',
    })
  })

  it('lists users with pagination, gets, updates and deletes one', async () => {
    const admin = backend.admin().auth.admin
    for (const n of [1, 2, 3]) await admin.createUser({ email: `listed-${n}@example.test`, email_confirm: true })
    const page = await admin.listUsers({ page: 1, perPage: 2 })
    expect(page.error).toBeNull()
    expect(page.data.users).toHaveLength(2)
    expect((page.data as { total?: number }).total).toBeGreaterThanOrEqual(3)
    expect((page.data as { nextPage?: number }).nextPage).toBe(2)

    const target = (await admin.createUser({ email: 'to-update@example.test' })).data.user!
    expect((await admin.getUserById(target.id)).data.user?.email).toBe('to-update@example.test')
    const updated = await admin.updateUserById(target.id, {
      email_confirm: true,
      user_metadata: { role_note: 'vip' },
      password: 'set-by-admin-1',
    })
    expect(updated.error).toBeNull()
    expect(updated.data.user?.user_metadata).toEqual({ role_note: 'vip' })
    expect(
      (await backend.client().auth.signInWithPassword({ email: 'to-update@example.test', password: 'set-by-admin-1' }))
        .error,
    ).toBeNull()

    expect((await admin.deleteUser(target.id)).error).toBeNull()
    expect((await admin.getUserById(target.id)).error).toMatchObject({ status: 404, code: 'user_not_found' })
    const profile = await backend.db.query('select 1 from public.profiles where id = $1', [target.id])
    expect(profile.rows).toHaveLength(0)
  })

  it('generates links without sending email: a recovery link signs the user in', async () => {
    await backend.admin().auth.admin.createUser({ email: 'linked@example.test', email_confirm: true })
    const { data, error } = await backend.admin().auth.admin.generateLink({
      type: 'recovery',
      email: 'linked@example.test',
      options: { redirectTo: 'http://127.0.0.1:5173/update-password' },
    })
    expect(error).toBeNull()
    expect(data.properties).toMatchObject({
      verification_type: 'recovery',
      redirect_to: 'http://127.0.0.1:5173/update-password',
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.any(String),
    })
    expect(data.user?.email).toBe('linked@example.test')
    expect(await messagesTo(backend.mailboxUrl, 'linked@example.test')).toHaveLength(0)
    const { fragment } = await followVerifyLink(data.properties!.action_link)
    expect(fragment.get('type')).toBe('recovery')
    expect(fragment.get('access_token')).toBeTruthy()
  })

  it('generates a signup link that creates the user, and a magic link that confirms an unconfirmed one', async () => {
    const admin = backend.admin().auth.admin
    const signup = await admin.generateLink({
      type: 'signup',
      email: 'gen-signup@example.test',
      password: 'gen-signup-pw',
    })
    expect(signup.error).toBeNull()
    expect(signup.data.user?.email_confirmed_at).toBeUndefined()
    const magic = await admin.generateLink({ type: 'magiclink', email: 'gen-signup@example.test' })
    const { fragment } = await followVerifyLink(magic.data.properties!.action_link)
    const { data } = await backend.client().auth.getUser(fragment.get('access_token')!)
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })

  it('refuses the admin API to the anon key with 403 not_admin', async () => {
    const anonAdmin = backend.client().auth.admin
    expect((await anonAdmin.listUsers()).error).toMatchObject({ status: 403, code: 'not_admin' })
    expect((await anonAdmin.createUser({ email: 'sneaky@example.test', email_confirm: true })).error).toMatchObject({
      status: 403,
      code: 'not_admin',
    })
    const r = await backend.db.query("select 1 from auth.users where email = 'sneaky@example.test'")
    expect(r.rows).toHaveLength(0)
  })

  it('refuses the admin API to a signed-in user token with 403 not_admin', async () => {
    const { session } = await signedInUser(backend, 'not-an-admin@example.test')
    const res = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${session!.access_token}` },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error_code: 'not_admin' })
  })

  it('invites by email: the invite link signs the new user in and confirms the address', async () => {
    const { data, error } = await backend.admin().auth.admin.inviteUserByEmail('invited@example.test', {
      data: { full_name: 'Invited Person' },
      redirectTo: 'http://127.0.0.1:5173/update-password',
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: 'invited@example.test', user_metadata: { full_name: 'Invited Person' } })
    expect(data.user?.invited_at).toBeTruthy()
    const mail = await latestMail(backend.mailboxUrl, 'invited@example.test', 'invited to Growletter')
    const { location, fragment } = await followVerifyLink(verifyLinkIn(mail))
    expect(location.startsWith('http://127.0.0.1:5173/update-password#')).toBe(true)
    expect(fragment.get('type')).toBe('invite')
    const { data: me } = await backend.client().auth.getUser(fragment.get('access_token')!)
    expect(me.user?.email_confirmed_at).toBeTruthy()
  })

  it("lists and deletes a user's factors", async () => {
    const { client, user } = await signedInUser(backend, 'admin-factors@example.test')
    const { data: enrolled } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Lost phone' })
    const admin = backend.admin().auth.admin
    const listed = await admin.mfa.listFactors({ userId: user!.id })
    expect(listed.data?.factors).toEqual([expect.objectContaining({ id: enrolled!.id, friendly_name: 'Lost phone' })])
    expect((await admin.mfa.deleteFactor({ userId: user!.id, id: enrolled!.id })).error).toBeNull()
    expect((await admin.mfa.listFactors({ userId: user!.id })).data?.factors).toEqual([])
  })
})
