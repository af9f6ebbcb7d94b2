-- Remembered consent, one row per granted scope. V2 kept a space-separated string per user and
-- application, updated by read-merge-write: two grants of different scopes at the same moment
-- could each write their own merge and lose the other's scopes. A grant now only adds rows
-- (insert ... on conflict do nothing), which concurrent grants cannot undo.
create table oauth_consent_scopes (
    user_id          bigint not null references users (id),
    application_id   bigint not null references applications (id),
    scope            varchar(200) not null,
    granted_at       timestamp with time zone not null,   -- when this scope was first granted
    primary key (user_id, application_id, scope)
);

-- Each remembered string, split at its spaces (the same SQL on H2 and PostgreSQL).
insert into oauth_consent_scopes (user_id, application_id, scope, granted_at)
with recursive parts (user_id, application_id, scope, rest, granted_at) as (
    select user_id, application_id, cast('' as varchar(4000)), cast(trim(scopes) || ' ' as varchar(4000)), granted_at
    from oauth_consents
    union all
    select user_id, application_id, cast(substring(rest from 1 for position(' ' in rest) - 1) as varchar(4000)),
           cast(trim(substring(rest from position(' ' in rest) + 1)) || ' ' as varchar(4000)), granted_at
    from parts where trim(rest) <> ''
)
select distinct user_id, application_id, scope, granted_at from parts where scope <> '';

drop table oauth_consents;
