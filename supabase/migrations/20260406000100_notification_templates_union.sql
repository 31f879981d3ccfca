-- Two migrations of the same wave each replaced notification_queue's template list with their own
-- (20260401000200 added payout_failed, 20260403000100 revision_decided); the list is both.
alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check (template = any (array[
  'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'payout_failed', 'dispute_decided',
  'deposit_receipt', 'revision_decided']));
