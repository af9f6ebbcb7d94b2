-- Pace (docs/delivery.md): an operator's rate limit per callback, and the one shared budget that
-- holds it across every node sharing the database. Runs unchanged on PostgreSQL and on H2.

-- Deliveries per second at most to this callback; null: the setting delivery.rate-limit (if any).
-- Owned by the callbacks package, like the rest of the row.
alter table callbacks add column rate_limit integer;

-- The delivery package's: each paced callback's next free send slot (GCRA's theoretical arrival
-- time), in microseconds since the epoch so that both databases advance it with the same integer
-- arithmetic. A claim takes a slot only with a conditional update on the value it read, so nodes
-- sharing the database spend one budget. Made on a callback's first paced delivery.
create table callback_pace (
    callback_id      bigint primary key references callbacks (id) on delete cascade,
    next_slot        bigint not null
);
