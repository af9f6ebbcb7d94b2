-- One mark of development mode instead of two: sandbox_state.development (V33), set by a
-- development-mode server and cleared by a production one at start, now also decides whether a reset
-- may empty the database (sandbox.SandboxReset). sandbox_mode (V38) said only that a development
-- server had once used the database, so a database since taken over by a production server could
-- still be reset; it goes. Runs unchanged on PostgreSQL and on H2.
drop table sandbox_mode;
