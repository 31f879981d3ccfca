-- Local demo data (never pushed to hosted Supabase). Money goes through the same functions production
-- uses, so every balance equals the sum of its completed ledger rows.
--
-- Stable ids and codes tests and docs can rely on (password for every account: growletter-demo):
--   users     admin@growletter.test        00000000-0000-4000-a000-000000000001 (admin)
--             advertiser@growletter.test   00000000-0000-4000-a000-000000000002 (advertiser, 10 bonus + 500 deposit)
--             publisher@growletter.test    00000000-0000-4000-a000-000000000003 (publisher)
--             ...000004 to ...000006 more advertisers, ...000007 to ...000009 more publishers (@growletter.test)
--   sources   10000000-0000-4000-a000-0000000000NN; unified codes: demo-approved (01, publisher), demo-verified (02),
--             demo-live (03), demo-pending (04), demo-pending-review (05), demo-under-review (06),
--             demo-rejected (07), demo-banned (08); more approved ones 09..16 on every platform
--   campaigns 20000000-0000-4000-a000-0000000000NN; 01..03 active (demo advertiser), 04 paused, 05 pending_review,
--             06 draft (demo advertiser); 07..12 active, 13 rejected, 14 completed (other advertisers)
--   payouts   30000000-0000-4000-a000-000000000001 paid (jordan), ...000002 requested (demo publisher)
--   payout accounts: the demo publisher's Stripe Express account acct_1GrowletterDemoPub is ready (the local Connect
--             stand-in adopts it at start, see embedded-backend/connect/index.ts); the other publishers have none.
--   subscriptions: reader1..12@example.com and reader13..14@example.net (12 pending, 4 rejected and refunded, the
--             rest confirmed and counted),
--             late@example.com expired, walk-in@example.com confirmed unattributed, gone@example.com unsubscribed.
--             Founder Finance (07) charges have passed screening (debits, available earnings); the others are on hold.
--   ESP:      Morning Stack (03) is connected to the local ESP sandbox's MailerLite (key local-mailerlite-key, group
--             "Demo subscribers (MailerLite)"); its confirmed subscribers are queued and delivered once the backend runs;
--             its paid reader opened and clicked (engaged); proxy-opened@example.org (free, confirmed) was only opened
--             by a privacy proxy (not engaged).
--   activity: 60 more visits; every click, view, subscriber and ledger row is then spread over the last 30 days
--             (settled ones 8 to 29 days ago, those still in screening within the last day), so charts show a month.

-- The demo users as GoTrue itself would write them, so the seed runs on hosted Supabase's auth schema (supabase
-- start, db reset) and GoTrue can read every row: the token columns '' (GoTrue reads them into strings and fails on
-- NULL; four of them have no default), the NOT NULL flags and the timestamps filled.
insert into auth.users (id, instance_id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous,
  confirmation_token, recovery_token, email_change_token_new, email_change_token_current, email_change,
  phone_change, phone_change_token, reauthentication_token)
select u.id::uuid, '00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', u.email,
  extensions.crypt('growletter-demo', extensions.gen_salt('bf')), now() - interval '60 days',
  '{"provider":"email","providers":["email"]}',
  jsonb_build_object('user_type', u.user_type, 'full_name', u.first_name || ' ' || u.last_name,
    'first_name', u.first_name, 'last_name', u.last_name),
  now() - u.age, now() - u.age, false, false,
  '', '', '', '', '', '', '', ''
from (values
  ('00000000-0000-4000-a000-000000000001', 'admin@growletter.test', 'advertiser', 'Alex', 'Admin', interval '90 days'),
  ('00000000-0000-4000-a000-000000000002', 'advertiser@growletter.test', 'advertiser', 'Ada', 'Advertiser', interval '80 days'),
  ('00000000-0000-4000-a000-000000000003', 'publisher@growletter.test', 'publisher', 'Pat', 'Publisher', interval '80 days'),
  ('00000000-0000-4000-a000-000000000004', 'maya@growletter.test', 'advertiser', 'Maya', 'Lindqvist', interval '70 days'),
  ('00000000-0000-4000-a000-000000000005', 'tomas@growletter.test', 'advertiser', 'Tomás', 'Reyes', interval '65 days'),
  ('00000000-0000-4000-a000-000000000006', 'priya@growletter.test', 'advertiser', 'Priya', 'Nair', interval '50 days'),
  ('00000000-0000-4000-a000-000000000007', 'sam@growletter.test', 'publisher', 'Sam', 'Okafor', interval '75 days'),
  ('00000000-0000-4000-a000-000000000008', 'lena@growletter.test', 'publisher', 'Lena', 'Fischer', interval '60 days'),
  ('00000000-0000-4000-a000-000000000009', 'jordan@growletter.test', 'publisher', 'Jordan', 'Blake', interval '40 days')
) as u (id, email, user_type, first_name, last_name, age);

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id, u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
  'email', now(), u.created_at, u.created_at
from auth.users u where u.email like '%@growletter.test';

-- The only way to create an admin outside the admin function: the seed, as the database owner.
update public.profiles set user_type = 'admin' where id = '00000000-0000-4000-a000-000000000001';

-- Wallets: the demo advertiser got the signup bonus and then deposited 500.
select private.post_ledger('00000000-0000-4000-a000-000000000002', 10, 'bonus', 'completed', 'Initial bonus',
  'signup-bonus:00000000-0000-4000-a000-000000000002');
select public.credit_deposit('00000000-0000-4000-a000-000000000002', 500, 'seed-deposit-ada-1');
select public.credit_deposit('00000000-0000-4000-a000-000000000004', 1000, 'seed-deposit-maya-1');
select public.credit_deposit('00000000-0000-4000-a000-000000000005', 250, 'seed-deposit-tomas-1');
select public.credit_deposit('00000000-0000-4000-a000-000000000006', 100, 'seed-deposit-priya-1');
select public.increment_wallet_balance('00000000-0000-4000-a000-000000000006', 15);
select private.lock_wallet(id) from public.profiles where user_type in ('publisher', 'admin');

insert into public.audience_sources (id, publisher_id, name, description, image_url, url, platform, category, status,
  review_note, unified_code, created_at)
values
  ('10000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000003', 'Pat''s Product Notes',
   'Weekly teardown of the best new products, read by 18,000 makers.', '/seed/source-newsletter.svg',
   'https://patnotes.example.com', 'newsletter', 'technology', 'approved', null, 'demo-approved', now() - interval '30 days'),
  ('10000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000003', 'Pat on X',
   'Threads about shipping small software businesses.', '/seed/source-x.svg', 'https://x.com/pat_example', 'x',
   'business', 'verified', null, 'demo-verified', now() - interval '28 days'),
  ('10000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000007', 'Sam Builds Live',
   'Live coding streams three times a week.', '/seed/source-youtube.svg', 'https://youtube.com/@sambuilds', 'youtube',
   'technology', 'live', null, 'demo-live', now() - interval '26 days'),
  ('10000000-0000-4000-a000-000000000004', '00000000-0000-4000-a000-000000000003', 'Pat''s Podcast',
   'A new show about indie founders.', '/seed/source-podcast.svg', 'https://pod.example.com/pat', 'podcast',
   'business', 'pending', null, 'demo-pending', now() - interval '3 days'),
  ('10000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000007', 'Sam''s Newsletter',
   'Notes from the stream, every Sunday.', '/seed/source-newsletter.svg', 'https://sam.example.com', 'newsletter',
   'technology', 'pending_review', null, 'demo-pending-review', now() - interval '2 days'),
  ('10000000-0000-4000-a000-000000000006', '00000000-0000-4000-a000-000000000008', 'Lena''s LinkedIn',
   'Career advice for designers.', '/seed/source-linkedin.svg', 'https://linkedin.com/in/lena-example', 'linkedin',
   'design', 'under_review', null, 'demo-under-review', now() - interval '1 day'),
  ('10000000-0000-4000-a000-000000000007', '00000000-0000-4000-a000-000000000009', 'Deal Blaster',
   'Coupons and giveaways.', '/seed/source-website.svg', 'https://deals.example.com', 'website',
   'lifestyle', 'rejected', 'The audience is built on giveaways; subscribers would not be genuine.', 'demo-rejected',
   now() - interval '20 days'),
  ('10000000-0000-4000-a000-000000000008', '00000000-0000-4000-a000-000000000009', 'Click Farm Weekly',
   'Banned for bought traffic.', '/seed/source-other.svg', 'https://farm.example.com', 'other',
   'marketing', 'banned', 'Clicks came from a click farm.', 'demo-banned', now() - interval '19 days'),
  ('10000000-0000-4000-a000-000000000009', '00000000-0000-4000-a000-000000000008', 'Lena Designs',
   'A design portfolio site with a popular resources page.', '/seed/source-website.svg', 'https://lena.example.com',
   'website', 'design', 'approved', null, 'lena-designs', now() - interval '25 days'),
  ('10000000-0000-4000-a000-000000000010', '00000000-0000-4000-a000-000000000008', 'Lena on Instagram',
   'Daily UI inspiration for 40k followers.', '/seed/source-instagram.svg', 'https://instagram.com/lena.example',
   'instagram', 'design', 'approved', null, 'lena-insta', now() - interval '22 days'),
  ('10000000-0000-4000-a000-000000000011', '00000000-0000-4000-a000-000000000007', 'Sam on TikTok',
   'One-minute coding tips.', '/seed/source-tiktok.svg', 'https://tiktok.com/@sam.example', 'tiktok',
   'technology', 'approved', null, 'sam-tiktok', now() - interval '18 days'),
  ('10000000-0000-4000-a000-000000000012', '00000000-0000-4000-a000-000000000009', 'Jordan''s Money Map',
   'Personal finance for people who hate spreadsheets.', '/seed/source-product.svg', 'https://moneymap.example.com',
   'product', 'finance', 'approved', null, 'money-map', now() - interval '15 days'),
  ('10000000-0000-4000-a000-000000000013', '00000000-0000-4000-a000-000000000009', 'Jordan on X',
   'Finance threads and market notes.', '/seed/source-x.svg', 'https://x.com/jordan_example', 'x',
   'finance', 'verified', null, 'jordan-x', now() - interval '12 days'),
  ('10000000-0000-4000-a000-000000000014', '00000000-0000-4000-a000-000000000003', 'Pat''s Podcast Clips',
   'Short episodes on LinkedIn.', '/seed/source-linkedin.svg', 'https://linkedin.com/in/pat-example', 'linkedin',
   'business', 'approved', null, 'pat-linkedin', now() - interval '10 days'),
  ('10000000-0000-4000-a000-000000000015', '00000000-0000-4000-a000-000000000007', 'Sam''s Dev Podcast',
   'Interviews with open source maintainers.', '/seed/source-podcast.svg', 'https://devpod.example.com', 'podcast',
   'technology', 'live', null, 'sam-podcast', now() - interval '8 days'),
  ('10000000-0000-4000-a000-000000000016', '00000000-0000-4000-a000-000000000008', 'Healthy Habits Hub',
   'A community of 12k people building better routines.', '/seed/source-other.svg', 'https://habits.example.com',
   'other', 'health', 'approved', null, 'habits-hub', now() - interval '5 days');

insert into public.campaigns (id, advertiser_id, name, description, image_url, website_url, category,
  price_per_subscriber, budget_total, status, review_note, created_at)
values
  ('20000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000002', 'The Frontend Brief',
   'Three links a week about building for the web, picked by working engineers.', '/seed/campaign-frontend.svg',
   'https://frontendbrief.example.com', 'technology', 2.50, 200, 'active', null, now() - interval '40 days'),
  ('20000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000002', 'Design Dispatch',
   'The week in product design: case studies, tools and jobs.', '/seed/campaign-design.svg',
   'https://designdispatch.example.com', 'design', 3.00, 300, 'active', null, now() - interval '35 days'),
  ('20000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000002', 'Morning Stack',
   'Five-minute tech news before your first coffee.', '/seed/campaign-morning.svg',
   'https://morningstack.example.com', 'technology', 1.50, 150, 'active', null, now() - interval '30 days'),
  ('20000000-0000-4000-a000-000000000004', '00000000-0000-4000-a000-000000000002', 'Weekend Reads',
   'Long-form essays for slow Sundays.', '/seed/campaign-reads.svg', 'https://weekendreads.example.com',
   'culture', 1.00, 50, 'paused', null, now() - interval '25 days'),
  ('20000000-0000-4000-a000-000000000005', '00000000-0000-4000-a000-000000000002', 'AI Field Notes',
   'Practical notes on shipping AI features.', '/seed/campaign-ai.svg', 'https://aifieldnotes.example.com',
   'technology', 2.00, 100, 'pending_review', null, now() - interval '2 days'),
  ('20000000-0000-4000-a000-000000000006', '00000000-0000-4000-a000-000000000002', 'Untitled draft',
   'Still writing the pitch.', null, null, 'other', 1.00, 20, 'draft', null, now() - interval '1 day'),
  ('20000000-0000-4000-a000-000000000007', '00000000-0000-4000-a000-000000000004', 'Founder Finance',
   'Money lessons for first-time founders, every Tuesday.', '/seed/campaign-finance.svg',
   'https://founderfinance.example.com', 'finance', 25.00, 1000, 'active', null, now() - interval '45 days'),
  ('20000000-0000-4000-a000-000000000008', '00000000-0000-4000-a000-000000000004', 'The Growth Memo',
   'Growth experiments that worked, with the numbers.', '/seed/campaign-growth.svg',
   'https://growthmemo.example.com', 'marketing', 4.00, 400, 'active', null, now() - interval '33 days'),
  ('20000000-0000-4000-a000-000000000009', '00000000-0000-4000-a000-000000000005', 'Plant Based Weekly',
   'Recipes and science for eating more plants.', '/seed/campaign-plants.svg', 'https://plantbased.example.com',
   'health', 1.20, 120, 'active', null, now() - interval '28 days'),
  ('20000000-0000-4000-a000-000000000010', '00000000-0000-4000-a000-000000000005', 'Trail Letters',
   'Routes, gear and stories from the trail.', '/seed/campaign-trail.svg', 'https://trailletters.example.com',
   'lifestyle', 0.80, 80, 'active', null, now() - interval '21 days'),
  ('20000000-0000-4000-a000-000000000011', '00000000-0000-4000-a000-000000000006', 'Indie Game Digest',
   'The best small games of the week.', '/seed/campaign-games.svg', 'https://indiegames.example.com',
   'entertainment', 1.00, 60, 'active', null, now() - interval '14 days'),
  ('20000000-0000-4000-a000-000000000012', '00000000-0000-4000-a000-000000000006', 'Remote Work Weekly',
   'Jobs and tools for distributed teams.', '/seed/campaign-remote.svg', 'https://remoteweekly.example.com',
   'business', 2.00, 100, 'active', null, now() - interval '9 days'),
  ('20000000-0000-4000-a000-000000000013', '00000000-0000-4000-a000-000000000006', 'Crypto Moonshots',
   'Guaranteed 100x picks.', '/seed/campaign-moon.svg', 'https://moonshots.example.com', 'finance',
   5.00, 100, 'rejected', 'Promises guaranteed returns.', now() - interval '7 days'),
  ('20000000-0000-4000-a000-000000000014', '00000000-0000-4000-a000-000000000005', 'Summer Reading Club',
   'A seasonal list that has ended.', '/seed/campaign-reads.svg', 'https://summerreading.example.com', 'culture',
   1.00, 30, 'completed', null, now() - interval '60 days');

-- The demo admin has two-factor sign-in (admins must: the database refuses admin work without aal2).
-- Local demo only: the README gives this secret so a developer can add it to an authenticator app.
-- created_at and updated_at are NOT NULL without a default in GoTrue's table.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at)
values ('00000000-0000-4000-b000-000000000001', '00000000-0000-4000-a000-000000000001', 'Demo authenticator', 'totp',
  'verified', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', now() - interval '60 days', now() - interval '60 days');

-- Clicks, page views, subscriptions and their money, through the production functions.
do $$
declare
  codes text[] := array['demo-approved', 'demo-approved', 'demo-approved', 'demo-verified', 'demo-live',
    'lena-designs', 'lena-designs', 'lena-insta', 'money-map', 'money-map', 'money-map', 'sam-tiktok',
    'demo-approved', 'demo-approved'];
  campaigns uuid[] := array[
    '20000000-0000-4000-a000-000000000001', '20000000-0000-4000-a000-000000000007', '20000000-0000-4000-a000-000000000007',
    '20000000-0000-4000-a000-000000000002', '20000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000000000002',
    '20000000-0000-4000-a000-000000000008', '20000000-0000-4000-a000-000000000009', '20000000-0000-4000-a000-000000000007',
    '20000000-0000-4000-a000-000000000007', '20000000-0000-4000-a000-000000000007', '20000000-0000-4000-a000-000000000010',
    '20000000-0000-4000-a000-000000000007', '20000000-0000-4000-a000-000000000007']::uuid[];
  click jsonb;
  rounds integer;
  i integer;
  sub_email text;
begin
  for rounds in 1 .. 2 loop
    for i in 1 .. cardinality(codes) loop
      perform set_config('request.headers', jsonb_build_object(
        'x-real-ip', '203.0.113.' || (i + rounds * 20),
        'user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
        'referer', 'https://x.com/')::text, true);
      click := public.track_audience_source_click(codes[i], jsonb_build_object('fingerprint', md5(i::text || rounds),
        'browser', 'Chrome', 'language', 'en-US', 'timezone', 'Europe/Berlin', 'screenWidth', 1440, 'screenHeight', 900,
        'viewport', jsonb_build_object('width', 1280, 'height', 800), 'country', 'Germany', 'city', 'Berlin'));
      perform public.record_campaign_page_view((click ->> 'click_id')::uuid, campaigns[i]);
      if rounds = 1 then
        -- 13 and 14 write from another domain: demo-approved brings five readers today, and one email domain brings
        -- at most 3 paid readers a day through one source (domain_velocity).
        sub_email := 'reader' || i || case when i > 12 then '@example.net' else '@example.com' end;
        perform public.create_pending_subscriptions(sub_email, array[campaigns[i]], array[encode(sha256(convert_to('seed-token-' || i, 'UTF8')), 'hex')],
          (click ->> 'source_id')::uuid, (click ->> 'click_id')::uuid, '203.0.113.' || (i + 20),
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36');
      end if;
    end loop;
  end loop;
  -- Not counted: a bot, a duplicate visitor and a click on a banned source.
  perform set_config('request.headers', '{"x-real-ip":"198.51.100.7","user-agent":"Googlebot/2.1 (+http://www.google.com/bot.html)"}', true);
  perform public.track_audience_source_click('demo-approved', '{}');
  perform set_config('request.headers', '{"x-real-ip":"203.0.113.21","user-agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"}', true);
  perform public.track_audience_source_click('demo-approved', '{}');
  perform public.track_audience_source_click('demo-banned', '{}');
  perform set_config('request.headers', '', true);

  -- Confirmation happens later than subscription (the 2-second rule): age the pending rows, confirm all but 12.
  update public.newsletter_subscriptions set armed_at = now() - interval '10 minutes', created_at = now() - interval '10 days';
  for i in 1 .. cardinality(codes) loop
    continue when i = 12;
    perform public.confirm_subscription(encode(sha256(convert_to('seed-token-' || i, 'UTF8')), 'hex'),
      'reader' || i || case when i > 12 then '@example.net' else '@example.com' end, '203.0.113.' || (i + 20), 'Mozilla/5.0');
  end loop;
  -- 12 stays pending; an expired one; an unattributed confirmed one; an unsubscribed one.
  perform public.create_pending_subscriptions('late@example.com', array['20000000-0000-4000-a000-000000000010'::uuid],
    array[encode(sha256(convert_to('seed-token-late', 'UTF8')), 'hex')]);
  update public.newsletter_subscriptions set status = 'expired', token_expires_at = now() - interval '1 day'
    where email = 'late@example.com';
  perform public.create_pending_subscriptions('walk-in@example.com', array['20000000-0000-4000-a000-000000000011'::uuid],
    array[encode(sha256(convert_to('seed-token-walk-in', 'UTF8')), 'hex')]);
  perform public.create_pending_subscriptions('gone@example.com', array['20000000-0000-4000-a000-000000000012'::uuid],
    array[encode(sha256(convert_to('seed-token-gone', 'UTF8')), 'hex')]);
  update public.newsletter_subscriptions set armed_at = now() - interval '10 minutes'
    where email in ('walk-in@example.com', 'gone@example.com');
  perform public.confirm_subscription(encode(sha256(convert_to('seed-token-walk-in', 'UTF8')), 'hex'), 'walk-in@example.com');
  perform public.confirm_subscription(encode(sha256(convert_to('seed-token-gone', 'UTF8')), 'hex'), 'gone@example.com');
  update public.newsletter_subscriptions set status = 'unsubscribed' where email = 'gone@example.com';

  -- Screening: the Founder Finance subscribers (25 credits each) have passed it; 4 was rejected as fraud.
  update public.wallet_transactions set available_at = now() - interval '1 day', created_at = now() - interval '9 days'
    where campaign_id = '20000000-0000-4000-a000-000000000007';
  perform public.settle_matured_holds(now());
  perform public.refund_subscription((select id from public.newsletter_subscriptions where email = 'reader4@example.com'),
    'Confirmed from a known disposable inbox provider');

  -- The demo publisher finished Stripe onboarding (what create-connect-onboarding and connect-webhook record).
  perform public.link_payout_account('00000000-0000-4000-a000-000000000003', 'acct_1GrowletterDemoPub');
  perform public.update_payout_account('acct_1GrowletterDemoPub', true, true, '{}', null, now() - interval '30 days');

  -- Admin decisions in the audit log; Jordan (3 x 20 earned) was paid 50, Pat (4 x 20) asks for 50.
  insert into public.payout_requests (id, publisher_id, amount, created_at) values
    ('30000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000009', 50, now() - interval '2 days'),
    ('30000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000003', 50, now() - interval '1 day');
  -- The admin acts in a two-factor session that exists for these statements only (admin functions check it).
  insert into auth.sessions (id, user_id, aal, created_at, updated_at)
  values ('50000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000001', 'aal2', now(), now());
  perform set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-a000-000000000001","role":"authenticated","aal":"aal2","session_id":"50000000-0000-4000-a000-000000000001"}', true);
  perform public.admin_mark_payout_paid('30000000-0000-4000-a000-000000000001', 'SEPA-2026-0001');
  perform public.admin_set_source_status('10000000-0000-4000-a000-000000000007', 'rejected',
    'The audience is built on giveaways; subscribers would not be genuine.');
  perform public.admin_set_source_status('10000000-0000-4000-a000-000000000008', 'banned', 'Clicks came from a click farm.');
  perform public.admin_set_campaign_status('20000000-0000-4000-a000-000000000013', 'rejected', 'Promises guaranteed returns.');
  perform set_config('request.jwt.claims', '', true);
  delete from auth.sessions where id = '50000000-0000-4000-a000-000000000001';
end
$$;

insert into public.contact_messages (name, email, subject, message, created_at) values
  ('Riley Chen', 'riley@example.com', 'Pricing question', 'Can I set a different price per source?', now() - interval '3 days'),
  ('Noor Haddad', 'noor@example.com', 'Partnership', 'We run a podcast network and would like to list 12 shows.', now() - interval '1 day');

-- More visits through the production click function (distinct visitors), some opening a newsletter.
do $$
declare
  codes text[] := array['demo-approved', 'demo-verified', 'demo-live', 'lena-designs', 'lena-insta', 'money-map',
    'sam-tiktok', 'jordan-x', 'pat-linkedin', 'sam-podcast', 'habits-hub'];
  campaigns uuid[] := array['20000000-0000-4000-a000-000000000001', '20000000-0000-4000-a000-000000000002',
    '20000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000000000007', '20000000-0000-4000-a000-000000000008',
    '20000000-0000-4000-a000-000000000009', '20000000-0000-4000-a000-000000000010']::uuid[];
  click jsonb;
  i integer;
begin
  for i in 1 .. 60 loop
    perform set_config('request.headers', jsonb_build_object('x-forwarded-for', '198.18.0.' || i,
      'user-agent', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
      'referer', 'https://x.com/')::text, true);
    click := public.track_audience_source_click(codes[1 + i % cardinality(codes)], jsonb_build_object('browser', 'Safari'));
    if i % 2 = 0 then
      perform public.record_campaign_page_view((click ->> 'click_id')::uuid, campaigns[1 + i % cardinality(campaigns)]);
    end if;
  end loop;
  perform set_config('request.headers', '', true);
end
$$;

-- Spread the activity over the last 30 days. Only timestamps move (balances are sums of amounts, so the
-- balance = ledger invariant holds); each subscriber confirms after its click, and each charge follows it.
-- Subscribers whose charges settled are placed 8 to 29 days ago; the ones still in screening within the last
-- day, with their holds maturing 7 days after confirmation as production would have it (so no seeded hold
-- matures within the next 6 days, which the screening tests rely on).
with placed as (
  select s.id, s.click_id,
    case when exists (select 1 from public.wallet_transactions t
                      where t.subscription_id = s.id and t.type in ('hold', 'earning') and t.status <> 'pending')
      then now() - make_interval(days => 8 + (row_number() over (order by s.email, s.campaign_id))::int * 5 % 21,
                                 hours => (row_number() over (order by s.email, s.campaign_id))::int * 7 % 20)
      else now() - make_interval(hours => 1 + (row_number() over (order by s.email, s.campaign_id))::int * 5 % 22)
    end as at
  from public.newsletter_subscriptions s
)
update public.newsletter_subscriptions s
  set created_at = p.at - interval '25 minutes', armed_at = p.at - interval '25 minutes',
      confirmed_at = case when s.confirmed_at is null then null else p.at end,
      token_expires_at = case when s.status = 'pending' then p.at + interval '48 hours' else s.token_expires_at end
  from placed p where p.id = s.id;

update public.link_clicks c set created_at = s.created_at - interval '3 minutes'
  from public.newsletter_subscriptions s where s.click_id = c.id;
with others as (
  select c.id, row_number() over (order by c.id) as n
  from public.link_clicks c where not exists (select 1 from public.newsletter_subscriptions s where s.click_id = c.id)
)
update public.link_clicks c set created_at = now() - make_interval(days => (o.n * 7 % 30)::int, hours => (o.n * 5 % 23)::int)
  from others o where o.id = c.id;

update public.wallet_transactions t set
    created_at = case when t.type in ('hold', 'earning') or t.status = 'canceled' then s.confirmed_at
                      else s.confirmed_at + interval '7 days' end,
    available_at = s.confirmed_at + interval '7 days'
  from public.newsletter_subscriptions s
  where t.subscription_id = s.id and s.confirmed_at is not null and t.type <> 'refund';
update public.wallet_transactions t set created_at = s.confirmed_at + interval '1 day'
  from public.newsletter_subscriptions s where t.subscription_id = s.id and t.type = 'refund';
update public.wallet_transactions set created_at = now() - interval '29 days' where type in ('bonus', 'deposit', 'credit');

-- Morning Stack delivers into the sandbox's MailerLite (issue 25); the key goes to Vault as save_esp_connection
-- puts it there, and the subscribers who already confirmed are queued as its backfill does.
with connection as (
  insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
  values ('20000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000002', 'mailerlite',
    '100000000000000001', 'Demo subscribers (MailerLite)',
    vault.create_secret('local-mailerlite-key', null, 'ESP API key of campaign 20000000-0000-4000-a000-000000000003'),
    encode(sha256(convert_to('local-mailerlite-key', 'UTF8')), 'hex'))
  returning id, campaign_id, advertiser_id
)
insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
select c.id, s.id, c.campaign_id, c.advertiser_id
from connection c join public.newsletter_subscriptions s on s.campaign_id = c.campaign_id and s.confirmed_at is not null;

-- Engagement read back from MailerLite (issue 39), so the evidence rows show both kinds of reader. Morning Stack's
-- paid reader opened twice and clicked once (engaged). proxy-opened@example.org, a reader who subscribed on the
-- newsletter's own page (free: no source), was opened three times by a privacy proxy and never clicked: MailerLite
-- cannot tell machines apart, so only clicks count and the reader is not engaged. The deliveries stay queued and go
-- out when the backend runs; counts read back later never go down.
select public.create_pending_subscriptions('proxy-opened@example.org', array['20000000-0000-4000-a000-000000000003'::uuid],
  array[encode(sha256(convert_to('seed-token-proxy-opened', 'UTF8')), 'hex')]);
update public.newsletter_subscriptions set armed_at = now() - interval '10 minutes' where email = 'proxy-opened@example.org';
select public.confirm_subscription(encode(sha256(convert_to('seed-token-proxy-opened', 'UTF8')), 'hex'), 'proxy-opened@example.org');
update public.esp_deliveries d set opens = x.opens, clicks = x.clicks, engaged = true,
    counted_engagement = x.clicks > 0, engagement_checked_at = now()
  from (
    select s.id, case when s.counted then 2 else 3 end as opens, case when s.counted then 1 else 0 end as clicks
    from public.newsletter_subscriptions s
    where s.campaign_id = '20000000-0000-4000-a000-000000000003' and s.confirmed_at is not null
  ) x
  where d.subscription_id = x.id;

-- Clicks are added to the figures by a scheduled job (drain-click-queue); the demo shows them at once.
select public.drain_click_queue();

-- The backdated demo clicks of last month wait in link_clicks' default partition; give them their month, as the
-- daily create-click-partitions job would.
select public.create_click_partitions();
