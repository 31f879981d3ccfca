-- A visitor who opens a newsletter that stopped taking subscribers (issue 23, point 8) reads why, not "Newsletter
-- not found": row-level security rightly hides a campaign that is paused or cannot pay one more subscriber, so
-- the page asks this function what became of the id. It tells nothing a visitor could not already see before:
-- campaigns never approved (draft, pending_review, rejected, banned) answer not_found.

create function public.newsletter_availability(p_campaign_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case
    when c.id is null or c.status in ('draft', 'pending_review', 'rejected', 'banned') then 'not_found'
    when c.status = 'active' and c.funding_status = 'funded' then 'open'
    when c.status = 'active' then 'out_of_budget'
    when c.status = 'paused' then 'paused'
    else 'closed'
  end
  from (select 1) one
  left join public.campaigns c on c.id = p_campaign_id
$function$;
comment on function public.newsletter_availability(p_campaign_id uuid) is 'For the public newsletter pages: whether a newsletter is open, out of budget (active but unable to pay one more subscriber), paused, closed (completed or archived) or not found (unknown or never approved), so a visitor reads why it cannot be subscribed to.';
revoke execute on function public.newsletter_availability(p_campaign_id uuid) from public;
grant execute on function public.newsletter_availability(p_campaign_id uuid) to anon, authenticated;
