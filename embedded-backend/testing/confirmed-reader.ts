/**
 * A reader who clicked a source's link and confirmed a minute later, on a domain of their own, so the click counts
 * and the confirmation is paid: what the ESP flow tests start from. Written straight into the database, as the
 * subscribe and verify-subscription functions would leave it (those are tested end to end in their own folders).
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Db } from '../db/database'

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

export async function confirmedReader(
  db: Db,
  { campaignId, sourceId, name }: { campaignId: string; sourceId: string; name: string },
) {
  const tag = randomUUID().slice(0, 8)
  const email = `${name}-${tag}@d${tag}.test`
  const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`
  const agent = `Mozilla/5.0 (${name} ${tag})`
  const click = await db.query<{ id: string }>(
    `insert into public.link_clicks (audience_source_id, counted, visitor_hash, ip, user_agent)
     values ($1, true, $2, $3, $4) returning id`,
    [sourceId, `visitor-${tag}`, ip, agent],
  )
  const token = randomUUID()
  await db.query('select * from public.create_pending_subscriptions($1, $2::uuid[], $3::text[], $4, $5, $6, $7)', [
    email,
    [campaignId],
    [hash(token)],
    sourceId,
    click.rows[0]!.id,
    ip,
    agent,
  ])
  await db.query("update public.newsletter_subscriptions set armed_at = now() - interval '1 minute' where email = $1", [
    email,
  ])
  const confirmed = await db.query<{ r: { counted: boolean } }>(
    "select public.confirm_subscription($1, $2, '203.0.113.7') as r",
    [hash(token), email],
  )
  if (!confirmed.rows[0]?.r.counted) throw new Error(`${email}'s confirmation was not counted`)
  return email
}
