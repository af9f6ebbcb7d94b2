package dev.ledgerlink.store;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Puts ledgerlink's fix of H2's commit in place when a test JVM starts, as Database.open does in a
 * server before H2 runs: some tests use H2 directly (the crash repair's, the leak's), and whichever
 * test class a fork runs first must not load H2's own commit class before the others open a database.
 */
public final class H2CommitFixFirst implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        H2CommitFix.install();
    }
}
