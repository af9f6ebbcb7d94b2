-- A second factor at sign-in (docs/oauth.md, "Second factor"): a user's TOTP authenticator (RFC 6238)
-- and their recovery codes. Expand-only: two new tables and a nullable column, which the release
-- before this one neither reads nor writes. Runs unchanged on PostgreSQL and on H2.

-- One authenticator per user. The secret is sealed with secrets.key (secrets.SecretBox), like the
-- callbacks' verification codes: the server must read it back to compute codes.
create table user_second_factors (
    user_id          bigint primary key references users (id),
    totp_secret      varchar(200) not null,            -- sealed (AES-256-GCM), never in plain text
    confirmed_at     timestamp with time zone,         -- null while the enrolment waits for its first code
    last_used_step   bigint default 0 not null,        -- newest 30-second step whose code was accepted: that code and older are refused (replay)
    created_at       timestamp with time zone not null
);

-- Single-use recovery codes: 80 random bits each, only their SHA-256 stored. Found by user and hash
-- (the key also serves the user's list); the foreign key is added after the key so that H2 uses the
-- key's index for it rather than making a second one.
create table user_recovery_codes (
    user_id          bigint not null,
    code_hash        varchar(64) not null,
    created_at       timestamp with time zone not null,
    used_at          timestamp with time zone,
    primary key (user_id, code_hash)
);
alter table user_recovery_codes add constraint user_recovery_codes_user foreign key (user_id) references users (id);

-- A sign-in whose password was right, waiting for the second factor: the session names the user
-- here, and user_id stays null (not signed in) until the code is accepted.
alter table oauth_login_sessions add column second_factor_user_id bigint references users (id);
