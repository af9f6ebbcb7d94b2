package dev.ledgerlink.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ledgerlink's fix of H2 2.5.252's commit (the ledgerlink-h2-fix artifact: H2's
 * org.h2.mvstore.tx.CommitDecisionMaker with one change; without it a commit that empties a B-tree leaf
 * can leak a page that keeps its chunk in the file for good, and an H2 file grows without bound under
 * deletes: docs/h2-commit-leak.md). Its class file is not on the class path under its name: this class
 * defines it into H2's package before H2 loads its own, and only into the H2 version it was made from.
 * Any other H2 runs its own class, and an H2 file opened then gets a warning saying what leaks.
 *
 * <p>The application jar (the release archive, the image, {@code ./ledgerlink}) holds the fix; the
 * server's Maven artifact names it only as an optional dependency, so an application embedding the
 * server (the sandbox in a test) runs H2's own class beside its own H2 unless it adds the artifact.
 */
final class H2CommitFix {
    private static final Logger LOG = LoggerFactory.getLogger(H2CommitFix.class);
    static final String CLASS = "org.h2.mvstore.tx.CommitDecisionMaker";
    private static final String DESCRIPTOR = "META-INF/ledgerlink/h2-fix.properties";
    /** A class of H2's transaction package that does not load CommitDecisionMaker: the fix is defined beside it. */
    private static final String NEIGHBOUR = "org.h2.mvstore.tx.VersionedBitSet";

    enum State {
        /** ledgerlink's class runs. */
        INSTALLED,
        /** The ledgerlink-h2-fix artifact is not on the class path: H2's own class runs. */
        ABSENT,
        /** The fix is for another H2 version than the one in use: H2's own class runs. */
        OTHER_H2_VERSION,
        /** H2 loaded its own class before the fix could be put in place (H2 was used earlier in this process). */
        TOO_LATE
    }

    private static State state;
    private static String detail = "";
    private static boolean reported;

    private H2CommitFix() {}

    /**
     * Puts the fix in place if it is on the class path and made for the H2 in use; idempotent. Called
     * before H2 opens any database (Database.open), since H2 loads its own class at its first commit.
     */
    static synchronized State install() {
        if (state != null) return state;
        ClassLoader loader = org.h2.engine.Constants.class.getClassLoader();
        String h2 = org.h2.engine.Constants.VERSION;   // the running H2's (a static initializer's value, not inlined)
        Properties fix = descriptor(loader);
        if (fix == null) {
            return settle(State.ABSENT, "the ledgerlink-h2-fix artifact is not on the class path");
        }
        String madeFor = fix.getProperty("h2.version");
        if (!h2.equals(madeFor)) {
            return settle(State.OTHER_H2_VERSION, "ledgerlink's fix is for H2 " + madeFor + " and this is H2 " + h2);
        }
        byte[] bytes = classFile(loader, "META-INF/ledgerlink/h2-fix/" + madeFor + "/" + CLASS.replace('.', '/') + ".class");
        try {
            Class<?> neighbour = Class.forName(NEIGHBOUR, false, loader);
            MethodHandles.privateLookupIn(neighbour, MethodHandles.lookup()).defineClass(bytes);
            return settle(State.INSTALLED, "H2 " + h2 + " with ledgerlink's fix of its commit");
        } catch (LinkageError e) {
            // "duplicate class definition": H2's class was loaded first (H2 used before ledgerlink opened a database).
            return settle(State.TOO_LATE, "H2 loaded its own commit class before ledgerlink could put its fix in place ("
                    + "H2 was used in this process before ledgerlink opened its database)");
        } catch (ReflectiveOperationException e) {
            return settle(State.TOO_LATE, "ledgerlink cannot put its fix into H2's package: " + e);
        }
    }

    /** Whether the commit class H2 runs is ledgerlink's (loads it: call after {@link #install()}). */
    static boolean inUse() {
        try {
            Class.forName(CLASS, false, org.h2.engine.Constants.class.getClassLoader()).getDeclaredField("LEDGERLINK_FIX");
            return true;
        } catch (ClassNotFoundException | NoSuchFieldException e) {
            return false;
        }
    }

    /**
     * When the first H2 file is opened, once per process: which commit H2 runs, and without the fix what that
     * means. A warning when the fix was there and could not be used; information when it was not shipped
     * (an embedding application's tests).
     */
    static synchronized void reportOnFileOpen() {
        State s = install();
        if (reported) return;
        reported = true;
        if (s == State.INSTALLED) {
            LOG.info(detail);
            return;
        }
        String leak = "H2's own {} runs: when a commit removes every row of a B-tree leaf whose parent has one key, H2 2.5.252 "
                + "(and any H2 with the same code) keeps the leaf's sibling page counted as live for good, so the H2 file keeps "
                + "that page's chunk and grows under range deletes (retention, queues); docs/h2-commit-leak.md";
        if (s == State.ABSENT) {
            LOG.info(detail + ": " + leak, CLASS);
        } else {
            LOG.warn(detail + ": " + leak, CLASS);
        }
    }

    private static State settle(State s, String why) {
        state = s;
        detail = why;
        return s;
    }

    private static Properties descriptor(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(DESCRIPTOR)) {
            if (in == null) return null;
            Properties p = new Properties();
            p.load(in);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DESCRIPTOR, e);
        }
    }

    private static byte[] classFile(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(DESCRIPTOR + " names " + name + ", which the class path does not hold");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
