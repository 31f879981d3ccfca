/** The tables, policies and functions the REST tests run against (created by the tests, not by migrations). */
export const REST_TEST_SQL = `
create table gw_authors (
  id serial primary key, name text not null unique, email text, meta jsonb not null default '{}'::jsonb
);
create table gw_books (
  id serial primary key,
  title text not null,
  author_id int not null references gw_authors (id),
  editor_id int references gw_authors (id),
  status text not null default 'draft' check (status in ('draft', 'published', 'archived')),
  tags text[] not null default '{}',
  pages int,
  price numeric(10, 2)
);
create table gw_reviews (
  id serial primary key, book_id int not null references gw_books (id) on delete cascade,
  stars int not null check (stars between 1 and 5), body text
);
create table gw_items (id serial primary key, sku text not null unique, qty int not null default 0, label text);
create table gw_notes (
  id serial primary key, owner_id uuid not null default auth.uid(), body text not null, published boolean not null default false
);
alter table gw_notes enable row level security;
create policy "Anyone can read published notes" on gw_notes for select to anon, authenticated using (published);
create policy "Owners can read their notes" on gw_notes for select to authenticated using ((select auth.uid()) = owner_id);
create policy "Owners can add their notes" on gw_notes for insert to authenticated with check ((select auth.uid()) = owner_id);
create policy "Owners can change their notes" on gw_notes for update to authenticated using ((select auth.uid()) = owner_id);
grant all on gw_authors, gw_books, gw_reviews, gw_items, gw_notes to anon, authenticated, service_role;
grant all on all sequences in schema public to anon, authenticated, service_role;

insert into gw_authors (name, email, meta) values
  ('Ann', 'ann@example.test', '{"country": "NZ", "age": 41}'),
  ('Ben', 'ben@example.test', '{"country": "FR", "age": 35}'),
  ('Cy', null, '{}');
insert into gw_books (title, author_id, editor_id, status, tags, pages, price) values
  ('Alpha', 1, 2, 'published', '{x,y}', 100, 9.99),
  ('Beta', 1, null, 'draft', '{y}', 200, null),
  ('Gamma', 2, 1, 'published', '{z}', null, 5.00),
  ('Delta', 2, null, 'archived', '{}', 50, 1.50);
insert into gw_reviews (book_id, stars, body) values (1, 5, 'great'), (1, 4, 'good'), (3, 3, 'ok');
insert into gw_notes (owner_id, body, published) values
  ('00000000-0000-4000-8000-00000000000a', 'public note of A', true),
  ('00000000-0000-4000-8000-00000000000a', 'private note of A', false),
  ('00000000-0000-4000-8000-00000000000b', 'private note of B', false);

create function gw_add(a int, b int default 1) returns int language sql immutable as $$ select a + b $$;
create function gw_books_by_status(p_status text) returns setof gw_books language sql stable
  as $$ select * from gw_books where status = p_status order by id $$;
create function gw_first_book() returns gw_books language sql stable as $$ select * from gw_books order by id limit 1 $$;
create function gw_author_stats(p_author int) returns table (author text, books bigint) language sql stable
  as $$ select a.name, count(b.id) from gw_authors a left join gw_books b on b.author_id = a.id where a.id = p_author group by a.name $$;
create function gw_titles() returns setof text language sql stable as $$ select title from gw_books order by id $$;
create function gw_echo(payload jsonb) returns jsonb language sql immutable as $$ select jsonb_build_object('got', payload) $$;
create function gw_noop() returns void language plpgsql as $$ begin end $$;
create function gw_fail(p_message text) returns void language plpgsql as $$ begin raise exception '%', p_message; end $$;
create function gw_raise(p_code text, p_message text) returns void language plpgsql
  as $$ begin raise exception using errcode = p_code, message = p_message; end $$;
create function gw_request_ip() returns text language sql stable
  as $$ select nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for' $$;
create function gw_whoami() returns text language sql stable as $$ select coalesce(auth.uid()::text, auth.role()) $$;
create function gw_secret() returns int language sql as $$ select 42 $$;
revoke execute on function gw_secret() from public, anon, authenticated;
-- Granted by name, as on hosted Supabase today: no default privileges give the service role anything.
grant execute on function gw_secret() to service_role;
`

/**
 * The schema of the PostgREST-coverage tests (rest-postgrest.test.ts): users, messages and channels;
 * products and categories joined by a junction table; a self-referencing table with computed
 * relationships; a view; a computed field; a range column; and a second exposed schema.
 */
export const REST_POSTGREST_SQL = `
create table gw_users (id int primary key, username text not null unique, status text not null);
create table gw_channels (
  id int primary key, slug text not null unique,
  owner_id int references gw_users (id), moderator_id int references gw_users (id)
);
create table gw_messages (
  id int primary key, message text, user_id int not null references gw_users (id),
  channel_id int not null references gw_channels (id), words int not null, data jsonb, tags text[]
);
create table gw_categories (id int primary key, name text not null);
create table gw_products (id int primary key, name text not null, price numeric(10, 2));
create table gw_product_categories (
  product_id int references gw_products (id), category_id int references gw_categories (id),
  primary key (product_id, category_id)
);
create table gw_employees (id int primary key, name text not null, supervisor_id int references gw_employees (id));
create table gw_reservations (id int primary key, during int4range not null);
create table gw_events (id int primary key, at timestamptz not null);
create view gw_active_users as select id, username from gw_users where status = 'active';
create function gw_supervisees(gw_employees) returns setof gw_employees language sql stable
  as $$ select * from gw_employees where supervisor_id = $1.id order by id $$;
create function gw_boss(gw_employees) returns setof gw_employees rows 1 language sql stable
  as $$ select * from gw_employees where id = $1.supervisor_id $$;
create function gw_shout(gw_users) returns text language sql immutable as $$ select upper($1.username) $$;
create function gw_messages_of(p_user int) returns setof gw_messages language sql stable
  as $$ select * from gw_messages where user_id = p_user order by id $$;
create function gw_usernames() returns setof text language sql stable as $$ select username from gw_users order by id $$;
grant select, insert, update, delete on all tables in schema public to anon, authenticated, service_role;

insert into gw_users values (1, 'ann', 'active'), (2, 'ben', 'active'), (3, 'cy', 'inactive');
insert into gw_channels values (1, 'general', 1, 2), (2, 'random', 2, null);
insert into gw_messages values
  (1, 'hello', 1, 1, 3, '{"a": 1, "b": [1, 2]}', '{x,"y z"}'),
  (2, 'hi all', 1, 2, 2, null, '{}'),
  (3, 'say "yo"', 2, 1, 1, '"text"', null),
  (4, null, 1, 1, 2, '{}', '{}');
insert into gw_categories values (1, 'office'), (2, 'gifts');
insert into gw_products values (1, 'pen', 1.50), (2, 'book', 12.00), (3, 'mug', null);
insert into gw_product_categories values (1, 1), (2, 1), (2, 2);
insert into gw_employees values (1, 'Taylor', null), (2, 'Johnson', 1), (3, 'Miller', 1);
insert into gw_reservations values (1, '[1,5)'), (2, '[10,20)');
insert into gw_events values (1, '2024-01-01 12:00:00+00');

create schema gw_extra;
create table gw_extra.things (id int primary key, label text not null);
insert into gw_extra.things values (1, 'only in gw_extra');
create function gw_extra.thing_count() returns int language sql stable as $$ select count(*)::int from gw_extra.things $$;
grant usage on schema gw_extra to anon, authenticated, service_role;
grant select, insert on gw_extra.things to anon, authenticated, service_role;
`
