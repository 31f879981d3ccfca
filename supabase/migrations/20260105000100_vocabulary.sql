-- The domain's vocabulary, defined once (ARCHITECTURE "Database conventions", STYLE "One vocabulary").
--
-- Each list is a public enum type, so `npm run db:types` carries its values to the SPA (`Constants.public.Enums`)
-- and the SPA's one vocabulary module (src/lib/vocabulary.ts) must label every value, checked by the compiler.
-- The columns stay `text` and their check constraints accept exactly the enum's values: database functions and
-- callers keep passing text (an enum column would refuse a text variable without a cast), while the list itself
-- lives only here. Adding a word is `alter type … add value`; no constraint has to change.
--
-- Categories were free text with three lists that disagreed (campaign form, directory filter, free text for
-- sources); now campaigns and sources share one list of lowercase slugs, and existing rows are mapped onto it.

create type public.category as enum (
  'business', 'culture', 'design', 'education', 'entertainment', 'finance', 'food', 'health', 'lifestyle',
  'marketing', 'news', 'productivity', 'science', 'sports', 'technology', 'travel', 'other');
comment on type public.category is 'Topics a newsletter (campaign) or an audience source is about; one list for both.';

create type public.source_platform as enum (
  'x', 'newsletter', 'product', 'youtube', 'website', 'instagram', 'tiktok', 'linkedin', 'podcast', 'other');
comment on type public.source_platform is 'Where a publisher''s audience lives (SPEC §2: twitter or x reads X).';

create type public.source_status as enum (
  'approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned', 'archived');
comment on type public.source_status is 'Audience source statuses (SPEC §4); approved, verified and live are public.';

create type public.campaign_status as enum (
  'draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'archived', 'banned');
comment on type public.campaign_status is 'A campaign''s life: reviewed before it is active, paused or finished after.';

create type public.funding_status as enum ('funded', 'budget_exhausted', 'balance_exhausted');
comment on type public.funding_status is 'Why an active campaign is or is not shown (PRODUCT "Money").';

create type public.subscription_status as enum ('pending', 'confirmed', 'expired', 'unsubscribed', 'rejected');
comment on type public.subscription_status is 'Double opt-in states of one subscriber to one campaign.';

create type public.not_counted_reason as enum (
  'bot_user_agent', 'head_request', 'duplicate_visitor', 'source_inactive', 'rate_limited', 'self_referral',
  'disposable_email', 'duplicate_email', 'too_fast_confirmation', 'no_click', 'velocity', 'budget_exhausted',
  'refunded');
comment on type public.not_counted_reason is
  'Why a click or a subscription was not counted (PRODUCT "Attribution"): one vocabulary for both.';

create type public.transaction_type as enum (
  'bonus', 'deposit', 'hold', 'release', 'refund', 'earning', 'payout', 'credit', 'debit');
comment on type public.transaction_type is 'Kinds of ledger rows in wallet_transactions.';

create type public.transaction_status as enum ('pending', 'completed', 'failed', 'canceled');
comment on type public.transaction_status is 'Ledger row states; a balance is the sum of completed rows.';

create type public.payout_status as enum ('requested', 'paid', 'canceled');
comment on type public.payout_status is 'States of a publisher''s payout request.';

create type public.user_type as enum ('advertiser', 'publisher', 'admin');
comment on type public.user_type is 'Who a user is (SPEC §6); advertiser is the default.';

-- Existing categories: case and spaces folded; words outside the list become 'other'.
update public.campaigns set category = case
    when lower(trim(category)) = any (enum_range(null::public.category)::text[]) then lower(trim(category))
    else 'other' end
  where category is not null;
update public.audience_sources set category = case
    when lower(trim(category)) = any (enum_range(null::public.category)::text[]) then lower(trim(category))
    else 'other' end
  where category is not null;

alter table public.campaigns drop constraint campaigns_category_check,
  add constraint campaigns_category_check check (category = any (enum_range(null::public.category)::text[])),
  drop constraint campaigns_status_check,
  add constraint campaigns_status_check check (status = any (enum_range(null::public.campaign_status)::text[])),
  drop constraint campaigns_funding_status_check,
  add constraint campaigns_funding_status_check
    check (funding_status = any (enum_range(null::public.funding_status)::text[]));

alter table public.audience_sources drop constraint audience_sources_category_check,
  add constraint audience_sources_category_check check (category = any (enum_range(null::public.category)::text[])),
  drop constraint audience_sources_platform_check,
  add constraint audience_sources_platform_check
    check (platform = any (enum_range(null::public.source_platform)::text[])),
  drop constraint audience_sources_status_check,
  add constraint audience_sources_status_check check (status = any (enum_range(null::public.source_status)::text[]));

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_status_check,
  add constraint newsletter_subscriptions_status_check
    check (status = any (enum_range(null::public.subscription_status)::text[])),
  drop constraint newsletter_subscriptions_not_counted_reason_check,
  add constraint newsletter_subscriptions_not_counted_reason_check
    check (not_counted_reason = any (enum_range(null::public.not_counted_reason)::text[]));

alter table public.link_clicks drop constraint link_clicks_not_counted_reason_check,
  add constraint link_clicks_not_counted_reason_check
    check (not_counted_reason = any (enum_range(null::public.not_counted_reason)::text[]));

alter table public.wallet_transactions drop constraint wallet_transactions_type_check,
  add constraint wallet_transactions_type_check check (type = any (enum_range(null::public.transaction_type)::text[])),
  drop constraint wallet_transactions_status_check,
  add constraint wallet_transactions_status_check
    check (status = any (enum_range(null::public.transaction_status)::text[]));

alter table public.payout_requests drop constraint payout_requests_status_check,
  add constraint payout_requests_status_check check (status = any (enum_range(null::public.payout_status)::text[]));

alter table public.profiles drop constraint profiles_user_type_check,
  add constraint profiles_user_type_check check (user_type = any (enum_range(null::public.user_type)::text[]));
