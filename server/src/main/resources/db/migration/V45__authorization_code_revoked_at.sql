-- A disconnect (oauth/ConnectedApps) revokes the pair's codes not yet exchanged: revoked_at, which the
-- exchange's use of the code checks under the pair's lock (oauth/AuthorizationCodeGrant), so an
-- exchange racing the disconnect either finishes first (and the disconnect revokes what it issued) or
-- finds its code revoked. Not expiry: an expiry set to "now" is judged against each node's clock, and
-- a node a few milliseconds behind the disconnecting one (or a sandbox clock set back) still finds the
-- code alive.
-- Expand-only: the previous release neither reads nor writes it; the disconnect still sets expires_at
-- too, which is all that release reads.
alter table oauth_authorization_codes add column revoked_at timestamp with time zone;
