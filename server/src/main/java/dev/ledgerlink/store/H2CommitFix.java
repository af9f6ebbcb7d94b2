package dev.ledgerlink.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the H2 in use carries ledgerlink's fix of H2 2.5.252's commit (its copy of
 * org.h2.mvstore.tx.CommitDecisionMaker: without it a commit that empties a B-tree leaf can leak a page
 * that keeps its chunk in the file for good, and an H2 file grows without bound under deletes). The
 * server's jar always has it; an application that puts H2's own jar ahead of ledgerlink's on its class
 * path (the sandbox embedded in a test) would not, and is told so once, when it opens an H2 file.
 */
final class H2CommitFix {
    private static final Logger LOG = LoggerFactory.getLogger(H2CommitFix.class);
    private static final String CLASS = "org.h2.mvstore.tx.CommitDecisionMaker";

    private H2CommitFix() {}

    static boolean inUse() {
        try {
            Class.forName(CLASS, false, H2CommitFix.class.getClassLoader()).getDeclaredField("LEDGERLINK_FIX");
            return true;
        } catch (ClassNotFoundException | NoSuchFieldException e) {
            return false;
        }
    }

    /** Logs a warning when the fix is not in use. */
    static void checkOnOpen() {
        if (!inUse()) {
            LOG.warn("H2's own {} was loaded instead of ledgerlink's fixed copy (H2's jar comes before ledgerlink's on the class path): "
                    + "this H2 file will keep pages of deleted rows and grow under load; put ledgerlink's jar first "
                    + "(docs/architecture.md, \"Packages of server\")", CLASS);
        }
    }
}
