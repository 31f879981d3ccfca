/**
 * The cases of the RLS matrix (rls-matrix.test.ts): for each table and operation, one statement aimed at a
 * known row and the actors allowed to reach it. Every other actor must be denied.
 */
import { anon, service, testDb, type Actor } from './db'
import { actors, createUser, ids } from './fixtures'

export type ActorName = 'anon' | 'advertiser' | 'otherAdvertiser' | 'publisher' | 'otherPublisher' | 'admin' | 'service'
export const actorOf: Record<ActorName, Actor> = { anon, service, ...actors }
export const actorIds: Record<ActorName, string | null> = {
  anon: null,
  service: ids.advertiser,
  advertiser: ids.advertiser,
  otherAdvertiser: ids.otherAdvertiser,
  publisher: ids.publisher,
  otherPublisher: ids.otherPublisher,
  admin: ids.admin,
}
export const names = Object.keys(actorOf) as ActorName[]

export type Op = 'select' | 'insert' | 'update' | 'delete'
export type Case = {
  table: string
  op: Op
  sql: (ctx: Ctx, me: string | null) => [string, unknown[]]
  allowed: ActorName[]
}
export type Ctx = Record<string, string>

const only = (...who: ActorName[]) => who
const everyone = names

// The rows the cases aim at; ids that the seed does not fix are looked up before the run.
export const ctx: Ctx = {}
export async function loadTargets() {
  const db = await testDb()
  const one = async (sql: string) => String((await db.query<{ id: string }>(sql)).rows[0]?.id)
  ctx.bonus = await one(`select id from wallet_transactions where reference = 'signup-bonus:${ids.advertiser}'`)
  ctx.wallet = await one(`select id from wallet_balances where user_id = '${ids.advertiser}'`)
  ctx.stat = await one(
    `select id from campaign_source_stats where campaign_id = '${ids.campaignActive}' and audience_source_id = '${ids.sourceApproved}'`,
  )
  // A seeded click of the demo publisher's own source: other files add clicks of this campaign on other
  // publishers' sources, and which row an unordered `limit 1` meets changed when clicks were partitioned by month.
  ctx.click = await one(
    `select id from link_clicks where campaign_id = '${ids.campaignActive}' and audience_source_id = '${ids.sourceApproved}' order by created_at limit 1`,
  )
  ctx.subscription = await one(`select id from newsletter_subscriptions where email = 'reader1@example.com'`)
  // Yesterday's loads of the demo publisher's embed (embed_loads is keyed by source and day, written by embed_load).
  await db.query(
    `insert into public.embed_loads (audience_source_id, day, loads) values ($1, current_date - 1, 7) on conflict do nothing`,
    [ids.sourceApproved],
  )
  ctx.event = await one(`select id from moderation_events limit 1`)
  ctx.message = await one(`select id from contact_messages limit 1`)
  ctx.deposit = await one(`select id from deposits where stripe_session_id = 'seed-deposit-ada-1'`)
  // A user whose profile is missing (for profile inserts) and one without a wallet (for wallet inserts).
  const orphan = await createUser('advertiser')
  await db.query('delete from public.profiles where id = $1', [orphan.id])
  ctx.orphan = orphan.id
  ctx.walletless = (await createUser('publisher')).id
  // Rows without activity, for deletes (anything with clicks, subscribers or payments is archived instead).
  ctx.idleSource = await one(
    `insert into audience_sources (publisher_id, name, status) values ('${ids.publisher}', 'Idle source', 'pending_review') returning id`,
  )
  ctx.idleSubscription = await one(`select id from newsletter_subscriptions where email = 'walk-in@example.com'`)
  ctx.dispute = await one(
    `insert into disputes (advertiser_id, publisher_id, audience_source_id, kind, reason)
     values ('${ids.advertiser}', '${ids.publisher}', '${ids.sourceApproved}', 'source', 'A dispute for the RLS matrix') returning id`,
  )
  await db.query(
    'insert into dispute_subscriptions (dispute_id, subscription_id, campaign_id) select $1, id, campaign_id from newsletter_subscriptions where id = $2',
    [ctx.dispute, ctx.subscription],
  )
  ctx.disputeCampaign = await one(
    `select campaign_id as id from newsletter_subscriptions where id = '${ctx.idleSubscription}'`,
  )
  // A partnership of the demo advertiser's paused newsletter with the demo publisher's source (approved at the
  // newsletter's own price: it changes no one's pay).
  ctx.partner = await one(
    `insert into campaign_partners (campaign_id, source_id, status, decided_at)
     values ('${ids.campaignPaused}', '${ids.sourceApproved}', 'approved', now())
     on conflict (campaign_id, source_id) do update set status = excluded.status returning id`,
  )
  ctx.notification = await one(
    `insert into notification_queue (user_id, template, data) values ('${ids.publisher}', 'payout_paid', '{}') returning id`,
  )
  ctx.webhook = await one(
    `insert into webhook_endpoints (advertiser_id, url, secret) values ('${ids.advertiser}', 'https://hooks.example.com/rls', 'whsec_c2VjcmV0') returning id`,
  )
  ctx.delivery = await one(
    `insert into webhook_deliveries (endpoint_id, advertiser_id, event_type, payload)
     values ('${ctx.webhook}', '${ids.advertiser}', 'webhook.test', '{}') returning id`,
  )
  // The seed connects Morning Stack (03) to the sandbox's MailerLite, its confirmed subscribers queued.
  ctx.espConnection = await one(
    `select id from esp_connections where campaign_id = '20000000-0000-4000-a000-000000000003'`,
  )
  ctx.espDelivery = await one(`select id from esp_deliveries where connection_id = '${ctx.espConnection}' limit 1`)
  // A hold the scheduled settlement could not settle (a seeded hold stands in for it: only the record matters).
  ctx.settlementFailure = await one(
    `insert into settlement_failures (transaction_id, user_id, type, amount, reason)
     select id, user_id, type, amount, 'For the RLS matrix' from wallet_transactions where type = 'hold' and reference <> 'signup-bonus:${ids.advertiser}'
     order by created_at limit 1 returning transaction_id as id`,
  )
  ctx.revision = await one(
    `insert into content_revisions (subject_type, subject_id, author_id, changes)
     values ('audience_source', '${ids.sourceApproved}', '${ids.publisher}', '{"name": "Renamed"}') returning id`,
  )
}

const byId =
  (table: string, key: string, column = 'id') =>
  (c: Ctx) =>
    [`select ${column} from public.${table} where id = $1`, [c[key] ?? key]] as [string, unknown[]]
const update = (table: string, key: string, set: string) => (c: Ctx) =>
  [`update public.${table} set ${set} where id = $1`, [c[key] ?? key]] as [string, unknown[]]
const remove = (table: string, key: string) => (c: Ctx) =>
  [`delete from public.${table} where id = $1`, [c[key] ?? key]] as [string, unknown[]]

export const cases: Case[] = [
  // profiles: names of advertisers with an active campaign are public; a publisher's profile is not.
  { table: 'profiles', op: 'select', sql: byId('profiles', ids.advertiser, 'full_name'), allowed: everyone },
  {
    table: 'profiles',
    op: 'select',
    sql: byId('profiles', ids.publisher, 'full_name'),
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'profiles',
    op: 'insert',
    sql: (c) => ['insert into public.profiles (id, user_type) values ($1, $2)', [c.orphan, 'advertiser']],
    allowed: only('service'),
  },
  {
    table: 'profiles',
    op: 'update',
    sql: update('profiles', ids.advertiser, 'full_name = full_name'),
    allowed: only('advertiser', 'service'),
  },
  { table: 'profiles', op: 'delete', sql: remove('profiles', 'walletless'), allowed: only('service') },

  {
    table: 'wallet_balances',
    op: 'select',
    sql: byId('wallet_balances', 'wallet'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'wallet_balances',
    op: 'insert',
    sql: (c) => ['insert into public.wallet_balances (user_id, balance) values ($1, 1000)', [c.walletless]],
    allowed: only('service'),
  },
  {
    table: 'wallet_balances',
    op: 'update',
    sql: update('wallet_balances', 'wallet', 'balance = balance + 1000'),
    allowed: only('service'),
  },
  { table: 'wallet_balances', op: 'delete', sql: remove('wallet_balances', 'wallet'), allowed: only('service') },

  {
    table: 'wallet_transactions',
    op: 'select',
    sql: byId('wallet_transactions', 'bonus'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'wallet_transactions',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.wallet_transactions (user_id, amount, type, status) values ($1, 1000, 'credit', 'completed')`,
      [me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'wallet_transactions',
    op: 'update',
    sql: update('wallet_transactions', 'bonus', `description = 'rewritten'`),
    allowed: only('service'),
  },
  { table: 'wallet_transactions', op: 'delete', sql: remove('wallet_transactions', 'bonus'), allowed: only('service') },

  { table: 'audience_sources', op: 'select', sql: byId('audience_sources', ids.sourceApproved), allowed: everyone },
  {
    table: 'audience_sources',
    op: 'select',
    sql: byId('audience_sources', ids.sourcePending),
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'audience_sources',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.audience_sources (publisher_id, name, platform, status) values ($1, 'My new source', 'x', 'pending_review')`,
      [me ?? ids.publisher],
    ],
    // Each publisher adds their own.
    allowed: only('publisher', 'otherPublisher', 'service'),
  },
  {
    table: 'audience_sources',
    op: 'update',
    sql: update('audience_sources', ids.sourcePending, `name = 'Renamed source'`),
    allowed: only('publisher', 'service'),
  },
  {
    table: 'audience_sources',
    op: 'delete',
    sql: remove('audience_sources', 'idleSource'),
    allowed: only('publisher', 'service'),
  },

  { table: 'campaigns', op: 'select', sql: byId('campaigns', ids.campaignActive), allowed: everyone },
  {
    table: 'campaigns',
    op: 'select',
    sql: byId('campaigns', ids.campaignPendingReview),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'campaigns',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.campaigns (advertiser_id, name, price_per_subscriber, budget_total, status) values ($1, 'My newsletter', 1, 10, 'pending_review')`,
      [me ?? ids.advertiser],
    ],
    allowed: only('advertiser', 'otherAdvertiser', 'service'),
  },
  {
    table: 'campaigns',
    op: 'update',
    sql: update('campaigns', ids.campaignPendingReview, `name = 'Renamed newsletter'`),
    allowed: only('advertiser', 'service'),
  },
  {
    table: 'campaigns',
    op: 'delete',
    sql: remove('campaigns', ids.campaignPendingReview),
    allowed: only('advertiser', 'service'),
  },

  // campaign_partners: read by the newsletter's advertiser and the source's publisher; written only by
  // apply_to_campaign and decide_partner (security definer).
  {
    table: 'campaign_partners',
    op: 'select',
    sql: byId('campaign_partners', 'partner'),
    allowed: only('advertiser', 'publisher', 'admin', 'service'),
  },
  {
    table: 'campaign_partners',
    op: 'insert',
    sql: () => [
      `insert into public.campaign_partners (campaign_id, source_id, status, decided_at) values ($1, $2, 'approved', now())`,
      [ids.campaignActive, ids.sourceLive],
    ],
    allowed: only('service'),
  },
  {
    table: 'campaign_partners',
    op: 'update',
    sql: update('campaign_partners', 'partner', 'price_override = 50'),
    allowed: only('service'),
  },
  {
    table: 'campaign_partners',
    op: 'delete',
    sql: remove('campaign_partners', 'partner'),
    allowed: only('service'),
  },

  {
    table: 'campaign_source_stats',
    op: 'select',
    sql: byId('campaign_source_stats', 'stat'),
    allowed: only('advertiser', 'publisher', 'admin', 'service'),
  },
  {
    table: 'campaign_source_stats',
    op: 'insert',
    sql: () => [
      `insert into public.campaign_source_stats (campaign_id, audience_source_id, total_conversions) values ($1, $2, 99)`,
      [ids.campaignPaused, ids.sourceLive],
    ],
    allowed: only('service'),
  },
  {
    table: 'campaign_source_stats',
    op: 'update',
    sql: update('campaign_source_stats', 'stat', 'total_conversions = total_conversions + 99'),
    allowed: only('service'),
  },
  {
    table: 'campaign_source_stats',
    op: 'delete',
    sql: remove('campaign_source_stats', 'stat'),
    allowed: only('service'),
  },

  // embed_loads: the source's publisher and admins read them; only embed_load (definer) writes.
  {
    table: 'embed_loads',
    op: 'select',
    sql: () => [
      `select loads from public.embed_loads where audience_source_id = $1 and day = current_date - 1`,
      [ids.sourceApproved],
    ],
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'embed_loads',
    op: 'insert',
    sql: () => [
      `insert into public.embed_loads (audience_source_id, day, loads) values ($1, current_date - 2, 5)`,
      [ids.sourceApproved],
    ],
    allowed: only('service'),
  },
  {
    table: 'embed_loads',
    op: 'update',
    sql: () => [
      `update public.embed_loads set loads = loads + 1 where audience_source_id = $1 and day = current_date - 1`,
      [ids.sourceApproved],
    ],
    allowed: only('service'),
  },
  {
    table: 'embed_loads',
    op: 'delete',
    sql: () => [
      `delete from public.embed_loads where audience_source_id = $1 and day = current_date - 1`,
      [ids.sourceApproved],
    ],
    allowed: only('service'),
  },

  {
    table: 'link_clicks',
    op: 'select',
    sql: byId('link_clicks', 'click'),
    allowed: only('advertiser', 'publisher', 'admin', 'service'),
  },
  {
    table: 'link_clicks',
    op: 'insert',
    sql: () => [
      `insert into public.link_clicks (audience_source_id, counted, visitor_hash) values ($1, true, 'x')`,
      [ids.sourceApproved],
    ],
    allowed: only('service'),
  },
  {
    table: 'link_clicks',
    op: 'update',
    sql: update('link_clicks', 'click', 'page_views = page_views + 100'),
    allowed: only('service'),
  },
  { table: 'link_clicks', op: 'delete', sql: remove('link_clicks', 'click'), allowed: only('service') },

  {
    table: 'newsletter_subscriptions',
    op: 'select',
    sql: byId('newsletter_subscriptions', 'subscription'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'newsletter_subscriptions',
    op: 'insert',
    sql: () => [
      `insert into public.newsletter_subscriptions (campaign_id, email, status) values ($1, 'forged@example.com', 'confirmed')`,
      [ids.campaignActive],
    ],
    allowed: only('service'),
  },
  {
    table: 'newsletter_subscriptions',
    op: 'update',
    sql: update('newsletter_subscriptions', 'subscription', `status = 'rejected'`),
    allowed: only('service'),
  },
  {
    table: 'newsletter_subscriptions',
    op: 'delete',
    sql: remove('newsletter_subscriptions', 'idleSubscription'),
    allowed: only('service'),
  },

  {
    table: 'contact_messages',
    op: 'select',
    sql: byId('contact_messages', 'message'),
    allowed: only('admin', 'service'),
  },
  {
    table: 'contact_messages',
    op: 'insert',
    sql: () => [
      `insert into public.contact_messages (name, email, subject, message) values ('Kim', 'kim@example.com', 'Hello', 'A question')`,
      [],
    ],
    allowed: everyone,
  },
  {
    table: 'contact_messages',
    op: 'update',
    sql: update('contact_messages', 'message', 'handled_at = now()'),
    allowed: only('admin', 'service'),
  },
  {
    table: 'contact_messages',
    op: 'delete',
    sql: remove('contact_messages', 'message'),
    allowed: only('admin', 'service'),
  },

  // payout_accounts: the owner and admins read; only the service role (the Connect functions) writes.
  {
    table: 'payout_accounts',
    op: 'select',
    sql: () => ['select publisher_id from public.payout_accounts where publisher_id = $1', [ids.publisher]],
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'payout_accounts',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.payout_accounts (publisher_id, stripe_account_id) values ($1, 'acct_RlsMatrix')`,
      [me ?? ids.otherPublisher],
    ],
    allowed: only('service'),
  },
  {
    table: 'payout_accounts',
    op: 'update',
    sql: () => [
      `update public.payout_accounts set state = 'ready', auto_payout = true where publisher_id = $1`,
      [ids.publisher],
    ],
    allowed: only('service'),
  },
  {
    table: 'payout_accounts',
    op: 'delete',
    sql: () => ['delete from public.payout_accounts where publisher_id = $1', [ids.publisher]],
    allowed: only('service'),
  },

  {
    table: 'payout_requests',
    op: 'select',
    sql: byId('payout_requests', ids.payoutRequested),
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'payout_requests',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.payout_requests (publisher_id, amount) values ($1, 500)`,
      [me ?? ids.publisher],
    ],
    allowed: only('service'),
  },
  {
    table: 'payout_requests',
    op: 'update',
    sql: update('payout_requests', ids.payoutRequested, `status = 'paid'`),
    allowed: only('service'),
  },
  {
    table: 'payout_requests',
    op: 'delete',
    sql: remove('payout_requests', ids.payoutRequested),
    allowed: only('service'),
  },

  {
    table: 'moderation_events',
    op: 'select',
    sql: byId('moderation_events', 'event'),
    allowed: only('admin', 'service'),
  },
  {
    table: 'moderation_events',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.moderation_events (actor_id, subject_type, subject_id, new_status) values ($1, 'campaign', $2, 'active')`,
      [me ?? ids.admin, ids.campaignActive],
    ],
    allowed: only('service'),
  },
  {
    table: 'moderation_events',
    op: 'update',
    sql: update('moderation_events', 'event', `reason = 'rewritten'`),
    allowed: only('service'),
  },
  { table: 'moderation_events', op: 'delete', sql: remove('moderation_events', 'event'), allowed: only('service') },
  // content_revisions: the author and admins read; only definer functions (submit_revision, the edit trigger,
  // admin_decide_revision) write.
  {
    table: 'content_revisions',
    op: 'select',
    sql: byId('content_revisions', 'revision'),
    allowed: only('publisher', 'admin', 'service'),
  },
  {
    table: 'content_revisions',
    op: 'insert',
    sql: () => [
      `insert into public.content_revisions (subject_type, subject_id, author_id, changes) values ('campaign', $1, $2, '{}')`,
      [ids.campaignActive, ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'content_revisions',
    op: 'update',
    sql: update('content_revisions', 'revision', "status = 'approved'"),
    allowed: only('service'),
  },
  { table: 'content_revisions', op: 'delete', sql: remove('content_revisions', 'revision'), allowed: only('service') },

  // deposits: owners and admins read; only the payment functions (service role) write.
  {
    table: 'deposits',
    op: 'select',
    sql: byId('deposits', 'deposit'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'deposits',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.deposits (user_id, amount, stripe_session_id) values ($1, 100, 'cs_test_forged')`,
      [me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'deposits',
    op: 'update',
    sql: update('deposits', 'deposit', `status = 'failed', transaction_id = null`),
    allowed: only('service'),
  },
  { table: 'deposits', op: 'delete', sql: remove('deposits', 'deposit'), allowed: only('service') },
  {
    table: 'disputes',
    op: 'select',
    sql: byId('disputes', 'dispute'),
    allowed: only('advertiser', 'publisher', 'admin', 'service'),
  },
  {
    table: 'disputes',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.disputes (advertiser_id, publisher_id, audience_source_id, kind, reason) values ($1, $2, $3, 'source', 'Opened straight through the API')`,
      [me ?? ids.advertiser, ids.publisher, ids.sourceApproved],
    ],
    allowed: only('service'),
  },
  {
    table: 'disputes',
    op: 'update',
    sql: update('disputes', 'dispute', `status = 'upheld'`),
    allowed: only('service'),
  },
  { table: 'disputes', op: 'delete', sql: remove('disputes', 'dispute'), allowed: only('service') },

  {
    table: 'dispute_subscriptions',
    op: 'select',
    sql: (c) => ['select subscription_id from public.dispute_subscriptions where dispute_id = $1', [c.dispute]],
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'dispute_subscriptions',
    op: 'insert',
    sql: (c) => [
      'insert into public.dispute_subscriptions (dispute_id, subscription_id, campaign_id) values ($1, $2, $3)',
      [c.dispute, c.idleSubscription, c.disputeCampaign],
    ],
    allowed: only('service'),
  },
  {
    table: 'dispute_subscriptions',
    op: 'update',
    sql: (c) => ['update public.dispute_subscriptions set refunded = true where dispute_id = $1', [c.dispute]],
    allowed: only('service'),
  },
  {
    table: 'dispute_subscriptions',
    op: 'delete',
    sql: (c) => ['delete from public.dispute_subscriptions where dispute_id = $1', [c.dispute]],
    allowed: only('service'),
  },

  {
    table: 'notification_queue',
    op: 'select',
    sql: byId('notification_queue', 'notification'),
    allowed: only('service'),
  },
  {
    table: 'notification_queue',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.notification_queue (user_id, template) values ($1, 'low_balance')`,
      [me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'notification_queue',
    op: 'update',
    sql: update('notification_queue', 'notification', `status = 'sent'`),
    allowed: only('service'),
  },
  {
    table: 'notification_queue',
    op: 'delete',
    sql: remove('notification_queue', 'notification'),
    allowed: only('service'),
  },

  // Webhook endpoints: their advertiser reads, edits and deletes them (created through create_webhook_endpoint,
  // which returns the secret once); deliveries are a log its advertiser reads and only the platform writes.
  {
    table: 'webhook_endpoints',
    op: 'select',
    sql: byId('webhook_endpoints', 'webhook', 'url'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'webhook_endpoints',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.webhook_endpoints (advertiser_id, url, secret) values ($1, 'https://hooks.example.com/new', 'whsec_eA==')`,
      [me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'webhook_endpoints',
    op: 'update',
    sql: update('webhook_endpoints', 'webhook', 'enabled = false'),
    allowed: only('advertiser', 'service'),
  },
  {
    table: 'webhook_endpoints',
    op: 'delete',
    sql: remove('webhook_endpoints', 'webhook'),
    allowed: only('advertiser', 'service'),
  },
  {
    table: 'webhook_deliveries',
    op: 'select',
    sql: byId('webhook_deliveries', 'delivery', 'status'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'webhook_deliveries',
    op: 'insert',
    sql: (c, me) => [
      `insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, payload) values ($1, $2, 'webhook.test', '{}')`,
      [c.webhook, me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'webhook_deliveries',
    op: 'update',
    sql: update('webhook_deliveries', 'delivery', `status = 'succeeded'`),
    allowed: only('service'),
  },
  {
    table: 'webhook_deliveries',
    op: 'delete',
    sql: remove('webhook_deliveries', 'delivery'),
    allowed: only('service'),
  },

  // ESP delivery: the owner and admins read connections (never the key's columns) and deliveries; only definer
  // functions and the service role write them.
  {
    table: 'esp_connections',
    op: 'select',
    sql: byId('esp_connections', 'espConnection', 'target_name'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'esp_connections',
    op: 'insert',
    sql: (_c, me) => [
      `insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
       values ($1, $2, 'kit', '1001', 'Form', gen_random_uuid(), 'x')`,
      [ids.campaignActive, me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'esp_connections',
    op: 'update',
    sql: update('esp_connections', 'espConnection', `target_name = 'Renamed'`),
    allowed: only('service'),
  },
  {
    table: 'esp_connections',
    op: 'delete',
    sql: remove('esp_connections', 'espConnection'),
    allowed: only('service'),
  },
  {
    table: 'esp_deliveries',
    op: 'select',
    sql: byId('esp_deliveries', 'espDelivery', 'status'),
    allowed: only('advertiser', 'admin', 'service'),
  },
  {
    table: 'esp_deliveries',
    op: 'insert',
    sql: (c, me) => [
      `insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
       select $1, id, campaign_id, $2 from public.newsletter_subscriptions where id = $3`,
      [c.espConnection, me ?? ids.advertiser, c.idleSubscription],
    ],
    allowed: only('service'),
  },
  {
    table: 'esp_deliveries',
    op: 'update',
    sql: update('esp_deliveries', 'espDelivery', `status = 'delivered'`),
    allowed: only('service'),
  },
  {
    table: 'esp_deliveries',
    op: 'delete',
    sql: remove('esp_deliveries', 'espDelivery'),
    allowed: only('service'),
  },

  // Settlement failures: admins read what the scheduled settlement could not settle; only it writes them.
  {
    table: 'settlement_failures',
    op: 'select',
    sql: (c) => ['select reason from public.settlement_failures where transaction_id = $1', [c.settlementFailure]],
    allowed: only('admin', 'service'),
  },
  {
    table: 'settlement_failures',
    op: 'insert',
    sql: (c, me) => [
      `insert into public.settlement_failures (transaction_id, user_id, type, amount, reason) values ($1, $2, 'hold', -1, 'Forged')`,
      [c.bonus, me ?? ids.advertiser],
    ],
    allowed: only('service'),
  },
  {
    table: 'settlement_failures',
    op: 'update',
    sql: (c) => [
      'update public.settlement_failures set resolved_at = now() where transaction_id = $1',
      [c.settlementFailure],
    ],
    allowed: only('service'),
  },
  {
    table: 'settlement_failures',
    op: 'delete',
    sql: (c) => ['delete from public.settlement_failures where transaction_id = $1', [c.settlementFailure]],
    allowed: only('service'),
  },

  // The reason vocabulary is public; the per-day aggregates are read by their campaign's advertiser and their
  // source's publisher and written only by the triggers (service role here stands for the platform).
  {
    table: 'not_counted_reasons',
    op: 'select',
    sql: () => [`select label from public.not_counted_reasons where code = 'bot_user_agent'`, []],
    allowed: everyone,
  },
  {
    table: 'not_counted_reasons',
    op: 'insert',
    sql: () => [
      `insert into public.not_counted_reasons (code, label, applies_to, position) values ('made_up', 'Made up', '{click}', 99)`,
      [],
    ],
    allowed: only('service'),
  },
  {
    table: 'not_counted_reasons',
    op: 'update',
    sql: () => [`update public.not_counted_reasons set label = 'Renamed' where code = 'bot_user_agent'`, []],
    allowed: only('service'),
  },
  {
    table: 'not_counted_reasons',
    op: 'delete',
    sql: () => [`delete from public.not_counted_reasons where code = 'head_request'`, []],
    allowed: only('service'),
  },
  ...aggregateCases(
    'campaign_source_daily_stats',
    `campaign_id = '${ids.campaignActive}' and audience_source_id = '${ids.sourceApproved}'`,
    'views = views + 99',
    only('advertiser', 'publisher', 'admin', 'service'),
    () => [
      `insert into public.campaign_source_daily_stats (campaign_id, audience_source_id, day, views) values ($1, $2, '2000-01-01', 99)`,
      [ids.campaignActive, ids.sourceApproved],
    ],
  ),
  ...aggregateCases(
    'source_daily_stats',
    `audience_source_id = '${ids.sourceApproved}'`,
    'clicks = clicks + 99',
    only('publisher', 'admin', 'service'),
    () => [
      `insert into public.source_daily_stats (audience_source_id, day, clicks) values ($1, '2000-01-01', 99)`,
      [ids.sourceApproved],
    ],
  ),
  ...aggregateCases(
    'not_counted_daily',
    `audience_source_id = '${ids.sourceApproved}' and campaign_id is null and reason = 'bot_user_agent'`,
    'total = total + 99',
    only('publisher', 'admin', 'service'),
    () => [
      `insert into public.not_counted_daily (kind, reason, audience_source_id, day, total) values ('click', 'rate_limited', $1, '2000-01-01', 99)`,
      [ids.sourceApproved],
    ],
  ),
]

function aggregateCases(table: string, where: string, set: string, readers: ActorName[], insert: Case['sql']): Case[] {
  const one = `(select ctid from public.${table} where ${where} order by day desc limit 1)`
  return [
    { table, op: 'select', sql: () => [`select 1 from public.${table} where ctid = ${one}`, []], allowed: readers },
    { table, op: 'insert', sql: insert, allowed: only('service') },
    {
      table,
      op: 'update',
      sql: () => [`update public.${table} set ${set} where ctid = ${one}`, []],
      allowed: only('service'),
    },
    {
      table,
      op: 'delete',
      sql: () => [`delete from public.${table} where ctid = ${one}`, []],
      allowed: only('service'),
    },
  ]
}
