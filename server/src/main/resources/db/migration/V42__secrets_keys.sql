-- One secrets key, checked and rotated (secrets/KeyCheck, secrets/KeyRotation; docs/operations.md "Keys").
-- Expand-only: the previous release neither reads nor writes these, and the column it does not
-- write stays null ("sealed before V40": opened by trying each key held).

-- What the database knows of its key: never the key, only its fingerprint and a check value (both
-- HMACs of fixed labels under it). One current key; during a rotation also the retiring one.
create table secrets_keys (
    key_id       varchar(16) primary key,          -- the key's fingerprint (secrets/SecretBox.keyId)
    check_value  varchar(64) not null,             -- base64 HMAC-SHA256 under the key of a fixed label
    role         varchar(16) not null,             -- 'current' (seals) or 'retiring' (being replaced)
    recorded_at  timestamp with time zone not null
);
create unique index secrets_keys_one_per_role on secrets_keys (role);

-- The fingerprint of the key that sealed callbacks.verifier_sealed (secrets/SealedColumns).
alter table callbacks add column verifier_key varchar(16);
