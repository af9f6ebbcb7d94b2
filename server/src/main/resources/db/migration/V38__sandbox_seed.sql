-- Development mode: the seed files a sandbox was given (serve --dev --seed, seed --dev, the JUnit
-- extension), kept so that a reset from any process of the sandbox (the API, the CLI, the JUnit
-- extension) brings it back to their state (docs/sandbox.md, "Reset"), applied again in the order
-- kept. One row per source. Owned by the sandbox capability. Runs unchanged on PostgreSQL and on H2.
create table sandbox_seed (
    position    integer primary key,        -- the order they are applied in
    source      varchar(1000) not null,     -- the file's path as given (or the JUnit resource)
    json        boolean not null,           -- read as JSON (a .json file), else YAML
    content     varchar(1000000) not null,  -- the file as it was applied
    stored_at   timestamp with time zone not null
);

-- Written by every process that opens the database in development mode: the CLI resets only a
-- database that a sandbox has used, never a production one.
create table sandbox_mode (
    id          integer primary key check (id = 1),
    since       timestamp with time zone not null
);
