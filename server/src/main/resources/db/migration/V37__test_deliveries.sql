-- Development mode's test deliveries (docs/sandbox.md, "Test deliveries"): how a delivery of a test
-- event is sent differently, stored with the delivery so that a restart or a retry sends it the same
-- way. Owned by the delivery package; the sandbox capability writes it when it publishes a test event.
-- Runs unchanged on PostgreSQL and on H2.
create table test_deliveries (
    delivery_id      bigint primary key references deliveries (id) on delete cascade,
    signature        varchar(16) not null,          -- valid | tampered | stale
    copies           integer not null,              -- the same request sent this many times per attempt
    delay_seconds    bigint not null,               -- how long after the publish it was first due
    send_order       varchar(16) not null,          -- as_sent | reversed | shuffled (the call's events)
    sequence_id      varchar(40),                   -- the deliveries of one call to one callback go in this order ...
    sequence_position integer,                      -- ... one after another (0 first); null: no order
    sequence_size    integer
);
create index test_deliveries_sequence on test_deliveries (sequence_id, sequence_position);
