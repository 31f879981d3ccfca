-- Connect, round three (issue 37): a payout whose Stripe transfer was reversed.
--
-- Stripe can reverse a transfer made to a publisher's Express account (the platform takes the money back, in full or
-- in part). A payout whose transfer was reversed in full is `reversed`: the money came back and its amount is
-- available to the publisher again. A part reversal leaves it `paid`, with the part in amount_reversed (next
-- migration). The value goes in a file of its own: a value added by `alter type … add value` cannot be used in the
-- transaction that adds it.

alter type public.payout_status add value 'reversed' after 'failed';
comment on type public.payout_status is 'States of a publisher''s payout request: requested, sending (a Stripe transfer in flight), paid (transferred, or marked paid by hand), failed (not sent, or the transfer was refused; the amount is available again), reversed (Stripe reversed the whole transfer; the amount is available again), canceled.';
