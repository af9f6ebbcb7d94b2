-- Superseding the live refresh token of a (user, application) must not visit every token the pair
-- was ever issued (each refresh adds one, forever): the benchmark showed code exchanges slowing with
-- history. With the liveness columns in the index, "used_at is null and superseded_at is null and
-- revoked_at is null" is one contiguous index range on both databases (no partial indexes on H2).
create index oauth_refresh_tokens_live on oauth_refresh_tokens (user_id, application_id, used_at, superseded_at, revoked_at);
drop index oauth_refresh_tokens_pair;
