-- Reads that stay quick however large the tables grow (issue 45; docs/sizing.md, "Plans"). Expand only:
-- two indexes, nothing the previous release reads or writes changes. Runs unchanged on PostgreSQL and on H2.

-- The console's grants page lists (user, application) pairs most recently issued first, a page at a
-- time (oauth.Grants.summaries): read backwards along this index instead of sorting every pair. A
-- new authorization of a pair moves its entry (lockSlot); refresh grants do not touch it.
create index oauth_token_slots_issued on oauth_token_slots (issued_at, user_id, application_id);

-- The admin API lists an application's grants newest first (oauth.Grants.list): one range of this
-- index instead of every grant. Written once per grant, by the code exchange that makes it.
create index oauth_grants_application on oauth_grants (application_id, id);
