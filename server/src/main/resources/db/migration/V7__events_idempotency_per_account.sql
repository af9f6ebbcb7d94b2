-- Idempotency-Key on event publishing is scoped to the account (decisions.md, "Durability and
-- failure"): two accounts may use the same key; within one account a key names one event.
alter table events drop constraint events_idempotency_unique;
alter table events add constraint events_idempotency_unique unique (account_id, idempotency_key);
