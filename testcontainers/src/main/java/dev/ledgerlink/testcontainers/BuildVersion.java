package dev.ledgerlink.testcontainers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version this module was built from (build.properties, written by the build), as scripts/image
 * tags the image of that build: a release by its version alone ({@code 1.2.0}), anything else by its
 * version and commit ({@code 0.1.0-SNAPSHOT-1a2b3c4}, {@code -dirty} when built from uncommitted
 * changes), the same name scripts/dist-archive gives the archive.
 */
final class BuildVersion {
    private BuildVersion() {}

    static String imageTag() {
        Properties p = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("build.properties")) {
            if (in == null) throw new IllegalStateException("build.properties is missing from the ledgerlink-testcontainers jar");
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tag(p.getProperty("version"), p.getProperty("commit"), Boolean.parseBoolean(p.getProperty("dirty")));
    }

    /** {@code commit} is null, empty or an unfilled placeholder outside a git checkout: the version alone then. */
    static String tag(String version, String commit, boolean dirty) {
        if (!version.endsWith("-SNAPSHOT") || commit == null || commit.isBlank() || commit.startsWith("$")) return version;
        return version + "-" + commit + (dirty ? "-dirty" : "");
    }
}
