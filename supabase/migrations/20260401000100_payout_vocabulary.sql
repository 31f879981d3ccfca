-- Payouts through Stripe Connect (issue 24): the words a payout and a publisher's payout account can be in.
--
-- A requested payout is now sent by the send-payouts function as a Stripe transfer: it is `sending` while a run
-- holds it (the transfer is in flight), `paid` with the transfer's `tr_…` reference, or `failed` with Stripe's
-- reason (its amount is available again; an admin can retry it or mark it paid by hand). New values go in a file
-- of their own: a value added by `alter type … add value` cannot be used in the transaction that adds it.

alter type public.payout_status add value 'sending' after 'requested';
alter type public.payout_status add value 'failed' after 'paid';
comment on type public.payout_status is 'States of a publisher''s payout request: requested, sending (a Stripe transfer in flight), paid (transferred, or marked paid by hand), failed (the transfer was refused; the amount is available again), canceled.';

create type public.payout_account_state as enum ('not_set_up', 'pending_verification', 'ready', 'action_needed');
comment on type public.payout_account_state is 'Where a publisher''s Stripe Express account stands: not set up (no account, or onboarding not finished), pending verification (details sent, Stripe is checking), ready (payouts enabled), action needed (Stripe needs more, or rejected the account).';
