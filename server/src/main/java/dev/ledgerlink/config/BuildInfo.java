package dev.ledgerlink.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * What build this is: the project's version and the git commit it was built from, as the build wrote
 * them into the jar's manifest (server/pom.xml: Implementation-Version, Ledgerlink-Commit,
 * Ledgerlink-Commit-Dirty). Run from classes rather than the jar (an IDE, the test suite), neither is
 * known. scripts/dist-archive names the release archive (and so the image) after the same three fields:
 * {@code 0.1.0-SNAPSHOT-1a2b3c4}, with {@code -dirty} for a tree with uncommitted changes.
 */
public record BuildInfo(String version, String commit, boolean dirty) {
    private static final BuildInfo CURRENT = read();

    public static BuildInfo current() {
        return CURRENT;
    }

    /** True when the running code came from a jar the build stamped. */
    public boolean known() {
        return version != null;
    }

    /** What {@code ledgerlink --version} prints after the name: version, then the commit. */
    public String describe() {
        if (!known()) return "development build (run from classes, no version recorded)";
        if (commit == null) return version + " (commit unknown: built outside a git checkout)";
        return version + " (commit " + commit + (dirty ? ", with uncommitted changes" : "") + ")";
    }

    private static BuildInfo read() {
        // The manifest of the jar this class was loaded from, not the first one on the class path.
        String self = BuildInfo.class.getResource("BuildInfo.class").toString();
        if (!self.startsWith("jar:")) return new BuildInfo(null, null, false);
        String manifest = self.substring(0, self.indexOf('!') + 1) + "/META-INF/MANIFEST.MF";
        try (InputStream in = java.net.URI.create(manifest).toURL().openStream()) {
            Attributes a = new Manifest(in).getMainAttributes();
            String commit = a.getValue("Ledgerlink-Commit");
            if (commit != null && (commit.isBlank() || commit.startsWith("$"))) commit = null;
            return new BuildInfo(a.getValue(Attributes.Name.IMPLEMENTATION_VERSION), commit,
                    Boolean.parseBoolean(a.getValue("Ledgerlink-Commit-Dirty")));
        } catch (IOException | IllegalArgumentException e) {
            return new BuildInfo(null, null, false);
        }
    }
}
