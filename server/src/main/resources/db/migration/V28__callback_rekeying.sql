-- Re-keying (docs/delivery.md, "Re-keying"). A verified callback whose code is resent stays
-- subscribed until the new code comes back: rekeying_since is when that started (null otherwise;
-- a second resend keeps the first one's time), and the callback is then neither verified nor
-- disabled. Its event deliveries wait meanwhile in the new deliveries.state 'held' (pending |
-- held | delivered | dropped): never claimed, due at once when the new code is verified, dropped
-- if it is not within delivery.disable-after of rekeying_since. Runs unchanged on PostgreSQL and on H2.
alter table callbacks add column rekeying_since timestamp with time zone;
-- The delivery engine looks for re-keyings that lapsed every few seconds: almost every row is null.
create index callbacks_rekeying on callbacks (rekeying_since);
