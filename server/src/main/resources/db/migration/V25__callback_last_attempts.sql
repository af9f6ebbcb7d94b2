-- Each callback's latest attempt, as the console's callback list shows it. Owned by the delivery
-- package: the result recorder writes it in the transaction that records the attempt, so the list
-- reads one row per callback instead of every attempt of every listed callback (which took seconds
-- once callbacks had a million attempts). Runs unchanged on PostgreSQL and on H2.
create table callback_last_attempts (
    callback_id      bigint primary key references callbacks (id) on delete cascade,
    delivery_id      bigint not null,               -- no key: retention may delete the delivery, the summary stays
    attempt          integer not null,
    attempted_at     timestamp with time zone not null,
    status_code      integer,                       -- null when no response came
    duration_ms      bigint not null,
    error            varchar(500)
);

-- The attempts recorded before this table existed: each callback's attempt with the highest id.
insert into callback_last_attempts (callback_id, delivery_id, attempt, attempted_at, status_code, duration_ms, error)
select d.callback_id, a.delivery_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error
from delivery_attempts a join deliveries d on d.id = a.delivery_id
where a.id in (select max(a2.id) from delivery_attempts a2 join deliveries d2 on d2.id = a2.delivery_id group by d2.callback_id);
