-- Messages from the /contact form: anyone may send one (bounded lengths); only admins read them.

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(trim(name)) between 1 and 120),
  email extensions.citext not null check (char_length(email::text) <= 254 and email::text ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  subject text not null check (char_length(trim(subject)) between 1 and 200),
  message text not null check (char_length(trim(message)) between 1 and 5000),
  handled_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.contact_messages is 'The /contact form''s inbox: write-only for visitors, read by admins.';
create index contact_messages_created_idx on public.contact_messages (created_at desc);

alter table public.contact_messages enable row level security;

create policy "Visitors can send a contact message"
  on public.contact_messages for insert to anon
  with check (handled_at is null);
create policy "Signed-in users can send a contact message"
  on public.contact_messages for insert to authenticated
  with check (handled_at is null);
create policy "Admins can read contact messages"
  on public.contact_messages for select to authenticated
  using ((select public.is_admin()));
create policy "Admins can mark contact messages handled"
  on public.contact_messages for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));
create policy "Admins can delete contact messages"
  on public.contact_messages for delete to authenticated
  using ((select public.is_admin()));
