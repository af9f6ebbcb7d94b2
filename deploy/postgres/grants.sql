-- The two PostgreSQL users of a ledgerlink database (docs/operations.md, "Database users"):
--   ledgerlink_migrate  owns the schema and runs `ledgerlink db migrate` (the migrate Job, init
--                       container or compose service): it may change the schema (DDL);
--   ledgerlink_app      the nodes' user (db.migrate=never): it reads and writes rows (DML), nothing else.
-- Made once by an administrator, before the first `db migrate`:
--   create role ledgerlink_migrate login password '...';
--   create role ledgerlink_app login password '...';
--   create database ledgerlink owner ledgerlink_migrate;
-- then, connected to that database as the administrator: psql -d ledgerlink -f deploy/postgres/grants.sql
-- (again after a restore into a new database). DatabaseUsersTest runs this file as it is.

-- The nodes may use the schema; only its owner may create in it.
grant usage on schema public to ledgerlink_app;
revoke create on schema public from public;
-- Tables and sequences the migrate user makes from now on (each migration) are the nodes' to read and write.
alter default privileges for role ledgerlink_migrate in schema public
    grant select, insert, update, delete on tables to ledgerlink_app;
alter default privileges for role ledgerlink_migrate in schema public
    grant usage, select on sequences to ledgerlink_app;
-- And those already there (a database migrated before these grants).
grant select, insert, update, delete on all tables in schema public to ledgerlink_app;
grant usage, select on all sequences in schema public to ledgerlink_app;
