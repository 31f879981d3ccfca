-- Column-level grants (issue 21, ARCHITECTURE "Database conventions"): the API roles may write only the
-- columns a form of the SPA edits. Until now every table granted INSERT and UPDATE on every column to anon
-- and authenticated, and row-level security alone decided whose row it was — so an owner could PATCH their
-- own row's bookkeeping: campaigns.budget_reserved and reservations_open (reopening a fully reserved
-- campaign and freezing settlement for the whole market), approved_at (skipping the review of public edits),
-- created_at, and INSERT accepted approved_at and budget_reserved. Reserved amounts, counters, review and
-- approval columns, statuses and timestamps now change only inside definer functions (which run as the
-- owner of the tables), and TRUNCATE, REFERENCES and TRIGGER are granted to no API role.
--
-- Revoking a table-level privilege also revokes its column-level grants, so every write grant the API
-- roles keep is re-granted below, by column, in one place. supabase/tests/grants.test.ts lists them.

revoke insert, update, truncate, references, trigger on all tables in schema public from anon, authenticated;
revoke truncate, references, trigger on all tables in schema public from service_role;
-- Visitors delete nothing; signed-in users only where a delete policy says whose rows.
revoke delete on all tables in schema public from anon, authenticated;
-- No API role inserts into a table with a sequence-backed key; setval is nobody's business.
revoke all on all sequences in schema public from anon, authenticated;

-- profiles: the sign-up fallback (SPEC §7 upsert; guard_profile_columns keeps user_type honest) and the
-- account page's name form.
grant insert (id, user_type, full_name, first_name, last_name) on public.profiles to authenticated;
grant update (full_name, first_name, last_name) on public.profiles to authenticated;

-- audience_sources: the source form. status only on insert, where the policy allows 'pending_review' alone;
-- the unified code is generated, approval and quality figures are the platform's.
grant insert (publisher_id, name, description, image_url, url, category, platform, status)
  on public.audience_sources to authenticated;
grant update (name, description, image_url, url, category, platform) on public.audience_sources to authenticated;
grant delete on public.audience_sources to authenticated;

-- campaigns: the submit form, the edit form and the budget form (PRODUCT: price changes apply to new
-- subscriptions). status only on insert ('draft' or 'pending_review', the policy says); spend, reservations,
-- funding, review and approval change in definer functions only.
grant insert (advertiser_id, name, description, image_url, website_url, category, price_per_subscriber, budget_total, status)
  on public.campaigns to authenticated;
grant update (name, description, image_url, website_url, category, price_per_subscriber, budget_total)
  on public.campaigns to authenticated;
grant delete on public.campaigns to authenticated;

-- contact_messages: the /contact form, for visitors and signed-in users; admins mark a message handled.
grant insert (name, email, subject, message) on public.contact_messages to anon, authenticated;
grant update (handled_at) on public.contact_messages to authenticated;
grant delete on public.contact_messages to authenticated;

-- webhook_endpoints: created by create_webhook_endpoint (the secret never comes from the browser); the
-- owner edits the address (check_webhook_endpoint validates it), description, events and on/off.
grant update (url, description, events, enabled) on public.webhook_endpoints to authenticated;
grant delete on public.webhook_endpoints to authenticated;

-- A draft went to review by an UPDATE of its status (guard_campaign_columns allowed draft -> pending_review);
-- statuses are no longer writable, so that one step is a function.
create function public.submit_campaign_for_review(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  current_status text;
begin
  select status::text into current_status from public.campaigns
    where id = p_campaign_id and advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only submit your own campaigns' using errcode = '42501';
  end if;
  if current_status <> 'draft' then
    raise exception 'Only a draft can be sent for review' using errcode = '22023';
  end if;
  update public.campaigns set status = 'pending_review' where id = p_campaign_id;
  return jsonb_build_object('id', p_campaign_id, 'status', 'pending_review');
end
$$;
comment on function public.submit_campaign_for_review(uuid) is
  'Advertisers send their own draft campaign to review (draft -> pending_review, the one status step that is theirs).';
revoke execute on function public.submit_campaign_for_review(uuid) from public, anon, authenticated;
grant execute on function public.submit_campaign_for_review(uuid) to authenticated;
