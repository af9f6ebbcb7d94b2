package dev.ledgerlink.store;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/**
 * The database's schema measured against this build's migrations: what is applied, what this build
 * has that the database lacks (pending: this build cannot serve it until they are applied), and what
 * the database has that this build does not know (newer: a later release migrated it; this build
 * serves it, since every migration is expand-only, docs/operations.md "Upgrading").
 */
public record SchemaStatus(List<Migration> applied, List<Migration> pending, List<Migration> newer) {

    /** One migration: its version (41) and name as its file or class has it ({@code V41__secrets_keys}). */
    public record Migration(String version, String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    public enum State {
        /** Every migration of this build is applied, and nothing else. */
        CURRENT,
        /** Every migration of this build is applied, and some of a later release too. */
        NEWER,
        /** Migrations of this build are not applied yet. */
        BEHIND
    }

    public State state() {
        if (!pending.isEmpty()) return State.BEHIND;
        return newer.isEmpty() ? State.CURRENT : State.NEWER;
    }

    /** Whether this build may serve the database as it is: nothing of its own is missing. */
    public boolean canServe() {
        return pending.isEmpty();
    }

    /** The version the database is at (the highest applied), "none" for an empty database. */
    public String current() {
        return applied.isEmpty() ? "none" : "V" + applied.getLast().version();
    }

    /** "V40__a, V41__b": a list of migrations as a message names them. */
    public static String names(List<Migration> migrations) {
        return migrations.stream().map(Migration::name).collect(Collectors.joining(", "));
    }

    /** What one line of a log or of {@code db status} says about it. */
    public String describe() {
        return switch (state()) {
            case CURRENT -> "the schema is current (" + current() + ")";
            case NEWER -> "the schema (" + current() + ") is newer than this build by " + names(newer)
                    + "; this build serves it (every migration is expand-only)";
            case BEHIND -> "the schema (" + current() + ") is behind this build: " + names(pending) + " not applied yet";
        };
    }

    static SchemaStatus of(MigrationInfo[] all) {
        List<Migration> applied = new ArrayList<>();
        List<Migration> pending = new ArrayList<>();
        List<Migration> newer = new ArrayList<>();
        for (MigrationInfo m : all) {
            if (m.getVersion() == null) continue;   // repeatable migrations: there are none
            Migration migration = new Migration(m.getVersion().getVersion(), name(m));
            MigrationState s = m.getState();
            if (s == MigrationState.FUTURE_SUCCESS) {
                applied.add(migration);
                newer.add(migration);
            } else if (s == MigrationState.FUTURE_FAILED || s.isFailed()) {
                pending.add(new Migration(migration.version(), migration.name() + " (failed: its step must run again)"));
            } else if (s.isApplied()) {
                applied.add(migration);
            } else if (s.isResolved()) {
                pending.add(migration);   // PENDING, or IGNORED: this build's, below the database's highest version
            }
        }
        return new SchemaStatus(List.copyOf(applied), List.copyOf(pending), List.copyOf(newer));
    }

    /** V41__secrets_keys: the script's file name without .sql, or a Java migration's class name without its package. */
    private static String name(MigrationInfo m) {
        String script = m.getScript();
        if (script == null) return "V" + m.getVersion().getVersion();
        if (script.endsWith(".sql")) script = script.substring(0, script.length() - 4);
        int dot = script.lastIndexOf('.');
        int slash = script.lastIndexOf('/');
        return script.substring(Math.max(dot, slash) + 1);
    }
}
