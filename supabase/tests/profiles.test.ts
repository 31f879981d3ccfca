// Profiles: signup decides advertiser or publisher (never admin); users edit their names only; only
// admins change a user type (audit-logged) and list emails.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { anon, errorOf, queryAs, testDb } from './helpers/db'
import { actors, createUser, ids } from './helpers/fixtures'

async function profile(id: string) {
  const db = await testDb()
  return (
    await db.query<Record<string, unknown>>(
      'select user_type, email::text, full_name from public.profiles where id = $1',
      [id],
    )
  ).rows[0]
}

describe('profiles', () => {
  it('creates the profile from signup metadata, accepting only advertiser or publisher', async () => {
    expect((await profile((await createUser('publisher')).id))?.user_type).toBe('publisher')
    expect((await profile((await createUser('advertiser')).id))?.user_type).toBe('advertiser')
    const db = await testDb()
    for (const requested of ['admin', 'superuser', '']) {
      const id = randomUUID()
      await db.query(
        `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, jsonb_build_object('user_type', $3::text))`,
        [id, `${id}@example.com`, requested],
      )
      expect((await profile(id))?.user_type, requested).toBe('advertiser')
    }
    const id = randomUUID()
    await db.query(
      `insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, '{"first_name":"Ana","last_name":"Ruiz"}')`,
      [id, `${id}@example.com`],
    )
    expect(await profile(id)).toEqual({ user_type: 'advertiser', email: `${id}@example.com`, full_name: 'Ana Ruiz' })
  })

  it('lets users edit their names but never their type, id or email', async () => {
    const u = await createUser('publisher')
    await queryAs(u.actor, `update public.profiles set full_name = 'New Name', first_name = 'New' where id = $1`, [
      u.id,
    ])
    expect((await profile(u.id))?.full_name).toBe('New Name')
    expect(await errorOf(u.actor, `update public.profiles set user_type = 'admin' where id = $1`, [u.id])).toMatch(
      /permission denied/,
    )
    expect(await errorOf(u.actor, `update public.profiles set email = 'x@example.com' where id = $1`, [u.id])).toMatch(
      /permission denied/,
    )
    // The guard also holds where column rights would not (the service role and future grants).
    const db = await testDb()
    await db.query('grant update (user_type, email, id) on public.profiles to authenticated')
    try {
      expect(await errorOf(u.actor, `update public.profiles set user_type = 'admin' where id = $1`, [u.id])).toBe(
        'Only an admin can change a user type',
      )
      expect(await errorOf(u.actor, `update public.profiles set email = 'x@example.com' where id = $1`, [u.id])).toBe(
        'Change your email from your account settings',
      )
      expect(await errorOf(u.actor, `update public.profiles set id = $2 where id = $1`, [u.id, randomUUID()])).toBe(
        'A profile id cannot be changed',
      )
    } finally {
      await db.query('revoke update (user_type, email, id) on public.profiles from authenticated')
    }
  })

  it('follows the auth email when it changes', async () => {
    const u = await createUser('advertiser')
    const db = await testDb()
    await db.query('update auth.users set email = $2 where id = $1', [u.id, `changed-${u.email}`])
    expect((await profile(u.id))?.email).toBe(`changed-${u.email}`)
  })
})

describe('admin_set_user_type', () => {
  it('changes a user type for admins only and writes the audit log', async () => {
    const u = await createUser('advertiser')
    expect(await errorOf(u.actor, 'select public.admin_set_user_type($1, $2)', [u.id, 'admin'])).toBe(
      'Only an admin can do this',
    )
    expect(await errorOf(anon, 'select public.admin_set_user_type($1, $2)', [u.id, 'admin'])).toMatch(
      /permission denied/,
    )
    await queryAs(actors.admin, 'select public.admin_set_user_type($1, $2, $3)', [u.id, 'publisher', 'Runs a podcast'])
    expect((await profile(u.id))?.user_type).toBe('publisher')
    const log = await queryAs(
      actors.admin,
      `select actor_id, old_status, new_status, reason from public.moderation_events where subject_id = $1`,
      [u.id],
    )
    expect(log).toEqual([
      { actor_id: ids.admin, old_status: 'advertiser', new_status: 'publisher', reason: 'Runs a podcast' },
    ])
  })

  it('refuses unknown types, unknown users and an admin demoting themselves', async () => {
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [ids.advertiser, 'owner'])).toBe(
      'Choose advertiser, publisher or admin',
    )
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [randomUUID(), 'publisher'])).toBe(
      'User not found',
    )
    expect(await errorOf(actors.admin, 'select public.admin_set_user_type($1, $2)', [ids.admin, 'publisher'])).toBe(
      'Admins cannot remove their own admin rights',
    )
  })

  it('lists users with their emails for admins only', async () => {
    const rows = await queryAs<{ email: string }>(
      actors.admin,
      `select email from public.admin_list_users('publisher@growletter')`,
    )
    expect(rows).toEqual([{ email: 'publisher@growletter.test' }])
    expect(await errorOf(actors.publisher, 'select * from public.admin_list_users()')).toBe('Only an admin can do this')
  })
})
