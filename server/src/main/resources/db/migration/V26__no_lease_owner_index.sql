-- A claim's and a publish's leased rows are read back by their ids and by their event
-- (DeliveryStore.LOAD_CLAIMED, LOAD_PUBLISHED), so nothing reads deliveries by lease owner. On H2 the
-- index's entries, keyed by random lease tokens, were written to pages all over it by every claim,
-- publish and outcome, each page written again by the durable commit (docs/BENCHMARKS.md, "The lease
-- owner's index"). Runs unchanged on PostgreSQL and on H2.
drop index if exists deliveries_lease;
