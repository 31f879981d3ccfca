// A suspended user is told why and how to appeal (issue 37, PRODUCT "Fair to both sides"): the suspension's audit
// row queues an email to that user with the admin's reason; reinstating tells them too. The reason reaches the
// user's inbox only: no function or table shows it to anyone before sign-in (the sign-in page says the account is
// suspended and points to the email and the contact form, src/features/auth/login.test.tsx).
import { describe, expect, it } from 'vitest'
import { anon, queryAs, testDb } from './helpers/db'
import { actors, createUser } from './helpers/fixtures'

const queued = async (userId: string) =>
  (
    await (
      await testDb()
    ).query<{ template: string; data: Record<string, unknown> }>(
      `select template, data from public.notification_queue where user_id = $1 and template = 'account_suspended' order by created_at, id`,
      [userId],
    )
  ).rows

describe('suspension notice', () => {
  it('emails the suspended user the reason and the way to appeal, and again when reinstated', async () => {
    const publisher = await createUser('publisher')
    const suspend = (suspended: boolean, reason: string) =>
      queryAs(actors.admin, 'select public.admin_set_user_suspended($1, $2, $3)', [publisher.id, suspended, reason])
    await suspend(true, 'Bought clicks from a click farm, three times')
    expect(await queued(publisher.id)).toEqual([
      {
        template: 'account_suspended',
        data: { status: 'suspended', reason: 'Bought clicks from a click farm, three times' },
      },
    ])
    await suspend(false, 'Appeal accepted: the clicks were a competitor')
    expect((await queued(publisher.id)).map((n) => n.data)).toEqual([
      { status: 'suspended', reason: 'Bought clicks from a click farm, three times' },
      { status: 'reinstated', reason: 'Appeal accepted: the clicks were a competitor' },
    ])
    // Other changes to a profile (its type) send no suspension email.
    await queryAs(actors.admin, "select public.admin_set_user_type($1, 'advertiser', 'Asked to switch')", [
      publisher.id,
    ])
    expect(await queued(publisher.id)).toHaveLength(2)
  })

  it('shows the reason to no one but admins: not to the user, not to a visitor', async () => {
    const advertiser = await createUser('advertiser')
    await queryAs(actors.admin, 'select public.admin_set_user_suspended($1, true, $2)', [
      advertiser.id,
      'Chargebacks on every deposit',
    ])
    const reasons = "select reason from public.moderation_events where subject_type = 'profile' and subject_id = $1"
    expect(await queryAs(advertiser.actor, reasons, [advertiser.id])).toEqual([])
    expect(
      await queryAs(anon, 'select count(*)::int as n from public.notification_queue').catch((e: Error) => e.message),
    ).toBe('permission denied for table notification_queue')
    expect(await queryAs(actors.admin, reasons, [advertiser.id])).toEqual([{ reason: 'Chargebacks on every deposit' }])
  })
})
