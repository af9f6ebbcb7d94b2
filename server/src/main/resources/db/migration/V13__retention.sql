-- Retention (the retention package): the lease that lets one node at a time sweep, and the indexes
-- the deletion rules need. Runs unchanged on PostgreSQL and on H2.

-- A named lease per background job that must run on one node at a time; holder is null when free.
create table maintenance_leases (
    name             varchar(64) primary key,
    holder           varchar(64),
    expires_at       timestamp with time zone not null
);
insert into maintenance_leases (name, holder, expires_at) values ('retention', null, timestamp with time zone '1970-01-01 00:00:00+00');

-- "Events no delivery references any more" (events.EventRetention) probes deliveries by event.
create index deliveries_event on deliveries (event_id);
