-- Audience sources: a publisher's X account, newsletter, product, channel or website. Each has a unified
-- code (URL-safe, generated, immutable) and the legacy magic link 'magic/{code}'. New sources wait for an
-- admin's review; only approved, verified and live ones are public (public.is_source_public).

create function public.generate_unified_code()
returns text
language sql volatile
set search_path = ''
as $$
  select translate(encode(extensions.gen_random_bytes(8), 'base64'), '+/=', '')::text
$$;
comment on function public.generate_unified_code() is 'A short random code for /earn/{code}; lowercased by the table default.';
-- The column default runs as the inserting role, so publishers need it; it reveals nothing.
revoke execute on function public.generate_unified_code() from public, anon;
grant execute on function public.generate_unified_code() to authenticated, service_role;

create table public.audience_sources (
  id uuid primary key default gen_random_uuid(),
  publisher_id uuid not null references public.profiles (id) on delete cascade,
  name text not null check (char_length(trim(name)) between 2 and 120),
  description text check (char_length(description) <= 2000),
  image_url text check (char_length(image_url) <= 2048),
  url text check (char_length(url) <= 2048),
  platform text not null default 'website'
    check (platform in ('x', 'newsletter', 'product', 'youtube', 'website', 'instagram', 'tiktok', 'linkedin', 'podcast', 'other')),
  category text check (char_length(category) <= 60),
  status text not null default 'pending_review'
    check (status in ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned')),
  review_note text check (char_length(review_note) <= 1000),
  unified_code text not null unique default lower(public.generate_unified_code())
    check (unified_code ~ '^[a-z0-9][a-z0-9_-]{2,63}$'),
  magic_link text generated always as ('magic/' || unified_code) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.audience_sources is
  'Where a publisher''s audience is. unified_code drives /earn/{code}; status decides visibility and whether clicks count.';
create index audience_sources_publisher_idx on public.audience_sources (publisher_id);
create index audience_sources_magic_link_idx on public.audience_sources (magic_link);
-- The directory's first page: public statuses, newest first, straight from this index.
create index audience_sources_public_created_idx on public.audience_sources (created_at desc)
  where status in ('approved', 'verified', 'live');
create index audience_sources_status_created_idx on public.audience_sources (status, created_at desc);

alter table public.audience_sources enable row level security;

create policy "Visitors can read public sources"
  on public.audience_sources for select to anon
  using (status in ('approved', 'verified', 'live'));
create policy "Signed-in users can read public sources"
  on public.audience_sources for select to authenticated
  using (status in ('approved', 'verified', 'live'));
create policy "Publishers can read their own sources"
  on public.audience_sources for select to authenticated
  using ((select auth.uid()) = publisher_id);
create policy "Admins can read every source"
  on public.audience_sources for select to authenticated
  using ((select public.is_admin()));
create policy "Publishers can add sources for review"
  on public.audience_sources for insert to authenticated
  with check (
    (select auth.uid()) = publisher_id
    and status = 'pending_review'
    and (select public.current_user_type()) = 'publisher'
  );
create policy "Publishers can edit their own sources"
  on public.audience_sources for update to authenticated
  using ((select auth.uid()) = publisher_id)
  with check ((select auth.uid()) = publisher_id);
create policy "Publishers can delete their own unreviewed sources"
  on public.audience_sources for delete to authenticated
  using ((select auth.uid()) = publisher_id and status in ('pending', 'pending_review', 'rejected'));

create function public.guard_audience_source_columns()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if public.is_api_caller() then
      -- Codes are generated, never chosen by the browser: a chosen code could imitate another source.
      new.unified_code := lower(public.generate_unified_code());
      new.review_note := null;
    end if;
    return new;
  end if;
  if new.publisher_id is distinct from old.publisher_id then
    raise exception 'A source cannot change owner' using errcode = '42501';
  end if;
  if new.unified_code is distinct from old.unified_code then
    raise exception 'A unified code cannot be changed' using errcode = '42501';
  end if;
  if public.is_api_caller() and (new.status is distinct from old.status or new.review_note is distinct from old.review_note) then
    raise exception 'Only an admin can change a source''s status' using errcode = '42501';
  end if;
  return new;
end
$$;
comment on function public.guard_audience_source_columns() is
  'Keeps publisher_id and unified_code immutable and status/review_note admin-only.';
revoke execute on function public.guard_audience_source_columns() from public, anon, authenticated;

create trigger audience_sources_guard_columns before insert or update on public.audience_sources
  for each row execute function public.guard_audience_source_columns();
create trigger audience_sources_set_updated_at before update on public.audience_sources
  for each row execute function public.set_updated_at();
