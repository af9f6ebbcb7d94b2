-- The authenticator's secret named as every sealed secret is named: <name>_sealed, beside <name>_key
-- for the fingerprint of the key that sealed it (null: sealed without one recorded, opened by trying
-- each key held), so the secrets key's check and rotation find it by its name. V40 came in the same
-- release as this: no node of an earlier release knows the table. Runs unchanged on PostgreSQL and H2.
alter table user_second_factors rename column totp_secret to totp_secret_sealed;
alter table user_second_factors add column totp_secret_key varchar(16);
