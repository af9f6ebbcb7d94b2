-- Every callback has its row in callback_last_attempts from its first verification request on (the
-- delivery package makes it in the callback's own transaction), so the result recorder only ever
-- updates it: with V25's MERGE, two nodes recording a callback's first attempt at once could both
-- insert, and PostgreSQL refused one of them, losing that batch's results until their leases ended.
-- A row whose callback was never attempted has no attempt yet. Runs unchanged on PostgreSQL and on H2.
alter table callback_last_attempts alter column delivery_id drop not null;
alter table callback_last_attempts alter column attempt drop not null;
alter table callback_last_attempts alter column attempted_at drop not null;
alter table callback_last_attempts alter column duration_ms drop not null;
insert into callback_last_attempts (callback_id)
select c.id from callbacks c where not exists (select 1 from callback_last_attempts l where l.callback_id = c.id);
