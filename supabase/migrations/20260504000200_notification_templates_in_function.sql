-- Issue 36: the notification templates moved into the send-notifications function's folder
-- (supabase/functions/send-notifications/templates), because `supabase functions deploy` bundles only
-- supabase/functions/. The comment that names their place follows them.

comment on function private.enqueue_notification(p_user_id uuid, p_template text, p_data jsonb, p_dedupe_key text) is 'Queues one notification email for a user (template from supabase/functions/send-notifications/templates, its data), once per dedupe key. Call it in the transaction of the event it announces.';
