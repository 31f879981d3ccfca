-- Explicit grants: what each API role may reach, written out, nothing through default privileges.
--
-- Why: hosted Supabase no longer grants new objects to the API roles ("Default privileges for new entities" is off
-- for projects created since 2026-05-30 and for every project since 2026-10-30). The migrations before this one were
-- written when it still did: they revoked what a role must not have from what the defaults gave. Pushed to a hosted
-- project today they would leave 117 functions and every table unreachable (42501 permission denied). This migration
-- grants, per object and per role, what the product uses; every migration after it grants what it creates beside
-- its policies (docs/style.md "SQL"). The snapshot (supabase/schemas) shows each grant under its object.
--
-- The rules, checked by supabase/tests/grants.test.ts (the list of every privilege the API roles hold):
-- - anon reads a table only where a policy lets visitors see rows (the directory, the newsletters, the reason
--   vocabulary; profiles' public columns are granted column by column in 20260101000300_profiles_and_auth.sql).
-- - authenticated reads the tables its policies open, and writes only the columns granted column by column in the
--   domain migrations (the forms' columns), deleting only where a delete policy says whose rows.
-- - service_role (the edge functions' key, which bypasses row-level security) may read and write every table, and
--   read the views; never truncate.
-- - A function is executable by exactly the roles that call it: the screens' functions by authenticated (and anon
--   for the visitor's), the jobs' and edge functions' by service_role. Every function revokes PUBLIC's execute in
--   the migration that creates it; trigger functions are executed by no API role.
-- - No API role holds TRUNCATE, REFERENCES, TRIGGER or MAINTAIN anywhere.

-- extensions and helpers (supabase/schemas/01_extensions_and_helpers.sql)
grant execute on function public.admin_set_user_suspended(p_user_id uuid, p_suspended boolean, p_reason text) to authenticated, service_role;
grant execute on function public.admin_user_sessions(p_user_id uuid) to authenticated, service_role;
grant execute on function public.canonical_email(p_email text) to anon, authenticated, service_role;
grant execute on function public.fold_email(p_email text) to anon, authenticated, service_role;
grant execute on function public.is_api_caller() to anon, authenticated, service_role;
grant execute on function public.is_bot_user_agent(p_user_agent text) to anon, authenticated, service_role;
grant execute on function public.session_is_live() to anon, authenticated, service_role;

-- vocabulary (supabase/schemas/02_vocabulary.sql)
grant select on table public.not_counted_reasons to anon, authenticated;
grant select, insert, update, delete on table public.not_counted_reasons to service_role;

-- profiles and auth (supabase/schemas/03_profiles_and_auth.sql)
grant select on table public.moderation_events to authenticated;
grant select, insert, update, delete on table public.moderation_events to service_role;
grant select, insert, update, delete on table public.profiles to service_role;
grant execute on function public.admin_audit_log(p_limit integer, p_offset integer, p_subject_type text) to authenticated, service_role;
grant execute on function public.admin_list_users(p_search text, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.admin_set_user_type(p_user_id uuid, p_user_type text, p_reason text) to authenticated, service_role;
grant execute on function public.admin_user(p_user_id uuid) to authenticated, service_role;
grant execute on function public.current_user_type() to authenticated, service_role;
grant execute on function public.is_admin() to anon, authenticated, service_role;
grant execute on function public.is_admin_account() to authenticated, service_role;

-- wallet and ledger (supabase/schemas/04_wallet_and_ledger.sql)
grant select on table public.deposits to authenticated;
grant select, insert, update, delete on table public.deposits to service_role;
grant select on table public.wallet_balances to authenticated;
grant select, insert, update, delete on table public.wallet_balances to service_role;
grant select on table public.wallet_transactions to authenticated;
grant select, insert, update, delete on table public.wallet_transactions to service_role;
grant execute on function public.admin_advertiser_balance(p_user_id uuid) to authenticated, service_role;
grant execute on function public.admin_deposits(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.admin_publisher_balance(p_user_id uuid) to authenticated, service_role;
grant execute on function public.advertiser_balance() to authenticated, service_role;
grant execute on function public.cancel_deposit(p_session_id text) to authenticated, service_role;
grant execute on function public.check_checkout_allowance(p_user_id uuid) to service_role;
grant execute on function public.claim_signup_bonus() to authenticated, service_role;
grant execute on function public.close_deposit(p_session_id text, p_status deposit_status, p_reason text) to service_role;
grant execute on function public.complete_deposit(p_session_id text, p_user_id uuid, p_amount numeric, p_payment_intent text, p_notify boolean) to service_role;
grant execute on function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text) to service_role;
grant execute on function public.ensure_wallet_exists(p_user_id uuid) to authenticated, service_role;
grant execute on function public.expire_reservations(p_now timestamp with time zone) to service_role;
grant execute on function public.expire_stale_deposits(p_now timestamp with time zone) to service_role;
grant execute on function public.increment_wallet_balance(user_id uuid, amount numeric) to service_role;
grant execute on function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamp with time zone) to service_role;
grant execute on function public.publisher_balance() to authenticated, service_role;
grant execute on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) to authenticated, service_role;

-- sources (supabase/schemas/05_sources.sql)
grant select on table public.audience_sources to anon;
grant select, delete on table public.audience_sources to authenticated;
grant select, insert, update, delete on table public.audience_sources to service_role;
grant execute on function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text) to authenticated, service_role;
grant execute on function public.archive_audience_source(p_source_id uuid) to authenticated, service_role;
grant execute on function public.generate_unified_code() to authenticated, service_role;
grant execute on function public.is_source_public(status text) to anon, authenticated, service_role;
grant execute on function public.refresh_source_quality(p_today date) to service_role;

-- campaigns (supabase/schemas/06_campaigns.sql)
grant select on table public.campaigns to anon;
grant select, delete on table public.campaigns to authenticated;
grant select, insert, update, delete on table public.campaigns to service_role;
grant select on table public.content_revisions to authenticated;
grant select, insert, update, delete on table public.content_revisions to service_role;
grant select on table public.wallets to authenticated, service_role;
grant execute on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) to authenticated, service_role;
grant execute on function public.admin_revisions(p_status text) to authenticated, service_role;
grant execute on function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text) to authenticated, service_role;
grant execute on function public.archive_campaign(p_campaign_id uuid) to authenticated, service_role;
grant execute on function public.my_default_campaign() to authenticated, service_role;
grant execute on function public.newsletter_availability(p_campaign_id uuid) to anon, authenticated, service_role;
grant execute on function public.set_campaign_paused(p_campaign_id uuid, p_paused boolean) to authenticated, service_role;
grant execute on function public.submit_campaign_for_review(p_campaign_id uuid) to authenticated, service_role;
grant execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) to authenticated, service_role;

-- clicks (supabase/schemas/07_clicks.sql)
grant select, insert, update, delete on table public.link_clicks to service_role;
grant execute on function public.attach_click_fingerprint(p_click_id uuid, p_fingerprint text) to anon, authenticated, service_role;
grant execute on function public.create_click_partitions(p_months_ahead integer) to service_role;
grant execute on function public.detach_click_partition(p_month date) to service_role;
grant execute on function public.drain_click_queue(p_batch integer, p_max_batches integer) to service_role;
grant execute on function public.purge_click_ips(p_older_than interval) to service_role;
grant execute on function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid) to anon, authenticated, service_role;
grant execute on function public.track_audience_source_click(unified_code text, device_info jsonb) to anon, authenticated, service_role;

-- subscriptions (supabase/schemas/08_subscriptions.sql)
grant select, insert, update, delete on table public.newsletter_subscriptions to service_role;
grant execute on function public.admin_refund_subscription(p_subscription_id uuid, p_reason text) to authenticated, service_role;
grant execute on function public.campaign_subscriber_count(p_campaign_id uuid, p_search text) to authenticated, service_role;
grant execute on function public.campaign_subscribers(p_campaign_id uuid, p_search text, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) to authenticated, service_role;
grant execute on function public.confirm_subscription(p_token_hash text, p_email text, p_ip text, p_user_agent text) to service_role;
grant execute on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text) to service_role;
grant execute on function public.decline_subscription(p_token_hash text, p_email text) to service_role;
grant execute on function public.publisher_offers() to authenticated, service_role;
grant execute on function public.publisher_unpaid_readers(p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.refund_subscription(p_subscription_id uuid, p_reason text) to service_role;
grant execute on function public.take_confirmation_email_allowance(p_email text) to service_role;

-- payouts (supabase/schemas/09_payouts.sql)
grant select on table public.payout_accounts to authenticated;
grant select, insert, update, delete on table public.payout_accounts to service_role;
grant select on table public.payout_requests to authenticated;
grant select, insert, update, delete on table public.payout_requests to service_role;
grant select on table public.settlement_failures to authenticated;
grant select, insert, update, delete on table public.settlement_failures to service_role;
grant execute on function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text) to authenticated, service_role;
grant execute on function public.admin_payout_requests(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.admin_retry_payout(p_payout_id uuid) to authenticated, service_role;
grant execute on function public.claim_due_payouts(p_limit integer) to service_role;
grant execute on function public.finish_payout(p_payout_id uuid, p_transfer_id text, p_failure text) to service_role;
grant execute on function public.link_payout_account(p_publisher_id uuid, p_account_id text) to service_role;
grant execute on function public.request_payout(p_amount numeric) to authenticated, service_role;
grant execute on function public.set_auto_payout(p_enabled boolean) to authenticated, service_role;
grant execute on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) to service_role;
grant execute on function public.update_payout_account(p_account_id text, p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text, p_as_of timestamp with time zone) to service_role;

-- disputes (supabase/schemas/10_disputes.sql)
grant select on table public.dispute_subscriptions to authenticated;
grant select, insert, update, delete on table public.dispute_subscriptions to service_role;
grant select on table public.disputes to authenticated;
grant select, insert, update, delete on table public.disputes to service_role;
grant execute on function public.admin_dispute_evidence(p_dispute_id uuid) to authenticated, service_role;
grant execute on function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text) to authenticated, service_role;
grant execute on function public.disputable_subscribers(p_source_id uuid) to authenticated, service_role;
grant execute on function public.open_dispute(p_reason text, p_subscription_ids uuid[], p_source_id uuid) to authenticated, service_role;

-- notifications and jobs (supabase/schemas/11_notifications_and_jobs.sql)
grant select, delete on table public.contact_messages to authenticated;
grant select, insert, update, delete on table public.contact_messages to service_role;
grant select, insert, update, delete on table public.notification_queue to service_role;
grant execute on function public.admin_contact_messages(p_state text, p_limit integer, p_offset integer) to authenticated, service_role;
grant execute on function public.admin_set_contact_message_handled(p_message_id uuid, p_handled boolean) to authenticated, service_role;
grant execute on function public.claim_notifications(p_limit integer) to service_role;
grant execute on function public.finish_notification(p_id uuid, p_error text) to service_role;

-- webhooks (supabase/schemas/12_webhooks.sql)
grant select on table public.webhook_deliveries to authenticated;
grant select, insert, update, delete on table public.webhook_deliveries to service_role;
grant delete on table public.webhook_endpoints to authenticated;
grant select, insert, update, delete on table public.webhook_endpoints to service_role;
grant execute on function public.claim_webhook_deliveries(p_limit integer) to service_role;
grant execute on function public.create_webhook_endpoint(p_url text, p_campaign_id uuid, p_description text) to authenticated, service_role;
grant execute on function public.finish_webhook_delivery(p_id uuid, p_response_status integer, p_error text) to service_role;
grant execute on function public.resend_webhook_delivery(p_delivery_id uuid) to authenticated, service_role;
grant execute on function public.rotate_webhook_secret(p_endpoint_id uuid) to authenticated, service_role;
grant execute on function public.send_test_webhook(p_endpoint_id uuid) to authenticated, service_role;

-- figures (supabase/schemas/13_figures.sql)
grant select on table public.campaign_source_daily_stats to authenticated;
grant select, insert, update, delete on table public.campaign_source_daily_stats to service_role;
grant select on table public.campaign_source_stats to authenticated;
grant select, insert, update, delete on table public.campaign_source_stats to service_role;
grant select on table public.not_counted_daily to authenticated;
grant select, insert, update, delete on table public.not_counted_daily to service_role;
grant usage, select on sequence public.not_counted_daily_id_seq to service_role;
grant select on table public.source_daily_stats to authenticated;
grant select, insert, update, delete on table public.source_daily_stats to service_role;
grant execute on function public.admin_marketplace_totals() to authenticated, service_role;
grant execute on function public.campaign_figures(p_from date, p_to date) to authenticated, service_role;
grant execute on function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.campaign_week_figures(p_now timestamp with time zone) to authenticated, service_role;
grant execute on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.figures_updated_at() to authenticated, service_role;
grant execute on function public.not_counted_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.publisher_figures(p_group text, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.source_figures(p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.source_not_counted(p_from date, p_to date) to authenticated, service_role;
grant execute on function public.source_totals(p_from date, p_to date) to authenticated, service_role;

-- esp delivery (supabase/schemas/14_esp_delivery.sql)
grant select, insert, update, delete on table public.esp_connections to service_role;
grant select on table public.esp_deliveries to authenticated;
grant select, insert, update, delete on table public.esp_deliveries to service_role;
grant execute on function public.claim_esp_deliveries(p_limit integer) to service_role;
grant execute on function public.claim_esp_engagement(p_limit integer) to service_role;
grant execute on function public.disconnect_esp(p_campaign_id uuid) to authenticated, service_role;
grant execute on function public.esp_engagement_figures(p_campaign_id uuid, p_from date, p_to date) to authenticated, service_role;
grant execute on function public.finish_esp_delivery(p_id uuid, p_remote_id text, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) to service_role;
grant execute on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer) to service_role;
grant execute on function public.retry_esp_delivery(p_delivery_id uuid) to authenticated, service_role;
grant execute on function public.save_esp_connection(p_campaign_id uuid, p_provider text, p_api_key text, p_target_id text, p_target_name text, p_backfill boolean) to authenticated, service_role;
