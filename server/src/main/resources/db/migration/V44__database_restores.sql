-- Restores of the database from a backup (store/Restores; docs/operations.md "Backup and restore"):
-- ledgerlink db restore (H2) and ledgerlink db mark-restored (PostgreSQL, after its own tools) record
-- one here, having moved every id counter past what the time lost since the backup may have handed out;
-- the first server to start on the database says in its log that it started on a restored database.
-- Expand-only: a new table, which the release before this one neither reads nor writes.
create table database_restores (
    restored_at     timestamp with time zone primary key,
    backup_point    timestamp with time zone not null,   -- when the backup was taken: what was committed before is in it
    source          varchar(1000) not null,              -- the backup file, or how it was restored
    ids_advanced_by bigint not null,                      -- how far every id counter was moved
    announced_at    timestamp with time zone             -- when a server first said it started on it
);
