-- Baseline, vocabulary: the statuses, reasons, platforms, categories and transaction types, defined once (the SPA reads them through the generated types).
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Types ===============================================================================================

create type public.campaign_status as enum ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'archived', 'banned');
comment on type public.campaign_status is 'A campaign''s life: reviewed before it is active, paused or finished after.';

create type public.category as enum ('business', 'culture', 'design', 'education', 'entertainment', 'finance', 'food', 'health', 'lifestyle', 'marketing', 'news', 'productivity', 'science', 'sports', 'technology', 'travel', 'other');
comment on type public.category is 'Topics a newsletter (campaign) or an audience source is about; one list for both.';

create type public.deposit_status as enum ('pending', 'completed', 'failed', 'expired');
comment on type public.deposit_status is 'Where a deposit stands: pending (checkout open or payment processing), completed (credited), failed (payment failed), expired (checkout closed unpaid).';

create type public.funding_status as enum ('funded', 'budget_exhausted', 'balance_exhausted');
comment on type public.funding_status is 'Why an active campaign is or is not shown (PRODUCT "Money").';

create type public.not_counted_reason as enum ('bot_user_agent', 'head_request', 'duplicate_visitor', 'source_inactive', 'rate_limited', 'self_referral', 'disposable_email', 'duplicate_email', 'too_fast_confirmation', 'no_click', 'velocity', 'budget_exhausted', 'refunded');
comment on type public.not_counted_reason is 'Why a click or a subscription was not counted (PRODUCT "Attribution"): one vocabulary for both.';

create type public.payout_status as enum ('requested', 'paid', 'canceled');
comment on type public.payout_status is 'States of a publisher''s payout request.';

create type public.source_platform as enum ('x', 'newsletter', 'product', 'youtube', 'website', 'instagram', 'tiktok', 'linkedin', 'podcast', 'other');
comment on type public.source_platform is 'Where a publisher''s audience lives (SPEC §2: twitter or x reads X).';

create type public.source_status as enum ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned', 'archived');
comment on type public.source_status is 'Audience source statuses (SPEC §4); approved, verified and live are public.';

create type public.subscription_status as enum ('pending', 'confirmed', 'expired', 'unsubscribed', 'rejected');
comment on type public.subscription_status is 'Double opt-in states of one subscriber to one campaign.';

create type public.transaction_status as enum ('pending', 'completed', 'failed', 'canceled');
comment on type public.transaction_status is 'Ledger row states; a balance is the sum of completed rows.';

create type public.transaction_type as enum ('bonus', 'deposit', 'hold', 'release', 'refund', 'earning', 'payout', 'credit', 'debit');
comment on type public.transaction_type is 'Kinds of ledger rows in wallet_transactions.';

create type public.user_type as enum ('advertiser', 'publisher', 'admin');
comment on type public.user_type is 'Who a user is (SPEC §6); advertiser is the default.';

-- === Tables ==============================================================================================

create table public.not_counted_reasons (
  code text not null,
  label text not null,
  applies_to text[] not null,
  position integer not null,
  constraint not_counted_reasons_pkey primary key (code)
);
alter table public.not_counted_reasons enable row level security;
comment on table public.not_counted_reasons is 'The one vocabulary of "not counted" reason codes (PRODUCT "Attribution"), each with its plain-words label and whether it applies to clicks, subscriptions or both.';
revoke all on table public.not_counted_reasons from anon, authenticated;
revoke truncate, references, trigger on table public.not_counted_reasons from service_role;
grant select on table public.not_counted_reasons to anon, authenticated;

-- === Rows the schema ships with ==========================================================================

insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('bot_user_agent', 'Bot or crawler', '{click}', '1'),
  ('budget_exhausted', 'Budget or balance exhausted', '{subscription}', '12'),
  ('disposable_email', 'Disposable email address', '{subscription}', '7'),
  ('duplicate_email', 'Email already counted for this newsletter', '{subscription}', '8'),
  ('duplicate_visitor', 'Same visitor within 1 hour', '{click}', '3'),
  ('head_request', 'Link preview (HEAD request)', '{click}', '2'),
  ('no_click', 'No counted click by the same visitor within 24 hours', '{subscription}', '10'),
  ('rate_limited', 'Too many clicks from one address', '{click}', '5'),
  ('refunded', 'Refunded during screening (fraud or dispute)', '{subscription}', '13'),
  ('self_referral', 'The publisher''s own address', '{subscription}', '6'),
  ('source_inactive', 'Source not approved', '{click,subscription}', '4'),
  ('too_fast_confirmation', 'Confirmed within 2 seconds', '{subscription}', '9'),
  ('velocity', 'More than 3 sign-ups an hour from one visitor', '{subscription}', '11');

-- === Row-level security policies =========================================================================

create policy "Signed-in users can read the reason vocabulary" on public.not_counted_reasons
  for select to authenticated
  using (true);
create policy "Visitors can read the reason vocabulary" on public.not_counted_reasons
  for select to anon
  using (true);
