-- The developer console (web/console). Runs unchanged on PostgreSQL and on H2.

-- Each attempt as it was sent and answered: the request headers and body the receiver got (the
-- verification code of a verification request is written as [redacted]; the signature headers
-- are derived from it and stay), the response headers, and the first 4 KiB of the response body.
alter table delivery_attempts add column request_headers varchar(4000);
alter table delivery_attempts add column request_body varchar(4000);
alter table delivery_attempts add column response_headers varchar(4000);
alter table delivery_attempts alter column response_body set data type varchar(4096);
-- The console's chart and live tail read the last hour of attempts.
create index delivery_attempts_time on delivery_attempts (attempted_at);

-- The account an application belongs to (created in the console, by `apps create --account`, or
-- the demo application); null for applications registered by an operator for no account.
alter table applications add column owner_account_id varchar(16);
alter table applications add constraint applications_owner_account foreign key (owner_account_id) references accounts (account_id);
create index applications_owner on applications (owner_account_id);

-- A console session signed in with the operator key sees every account; it has no user.
alter table oauth_login_sessions add column operator boolean default false not null;

-- The console lists the grants of a (user, application) pair.
create index oauth_grants_pair on oauth_grants (user_id, application_id);
