-- The sandbox's shared state (decisions.md "Development mode"): one row every process of the sandbox
-- reads, so that all of them see the same clock. clock_offset_micros is how far the sandbox's clock
-- is ahead of real time; development says whether a development-mode server runs on this database
-- (a production server clears it at start), so that the CLI honours the offset only in a sandbox.
create table sandbox_state (
    id integer primary key,
    clock_offset_micros bigint not null default 0,
    development boolean not null default false,
    constraint sandbox_state_one_row check (id = 1),
    constraint sandbox_state_offset_forward check (clock_offset_micros >= 0)
);
insert into sandbox_state (id, clock_offset_micros, development) values (1, 0, false);
