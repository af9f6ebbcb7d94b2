-- Ordered delivery per callback (decisions.md, "Notifications"; docs/delivery.md, "Order"): an
-- operator setting, off by default. Owned by the callbacks package (the column) and the delivery
-- package (the index). Runs unchanged on PostgreSQL and on H2.
alter table callbacks add column ordered boolean default false not null;
-- The claim and the dispatcher's sweep find the ordered callbacks through it (few, usually none).
create index callbacks_ordered on callbacks (ordered);
-- A callback's pending deliveries in id order: the claim's check that no earlier one of an ordered
-- callback is still pending, and the look-up of the next one to send, each a short range read.
create index deliveries_pending_of_callback on deliveries (state, callback_id, id);
