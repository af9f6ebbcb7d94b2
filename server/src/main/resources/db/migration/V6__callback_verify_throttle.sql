-- Wrong verification codes per callback, for the verification throttle (callbacks.VerifierThrottle):
-- how many wrong tries in the window that began at verify_failures_since. Cleared on success.
alter table callbacks add column verify_failures integer default 0 not null;
alter table callbacks add column verify_failures_since timestamp with time zone;
