package dev.ledgerlink.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * What Maven Central requires of the published modules, checked on the repository `mvn deploy` wrote (the
 * suite's, target/maven-repo, signed by scripts/test with a throwaway key through the release profile, as a
 * release is): every POM complete on its own (name, description, url, licences, developers, scm, versions
 * resolved), every artifact with sources and javadoc, checksums that match and signatures `gpg --verify`
 * accepts with the public key alone; and scripts/maven-bundle makes the portal's bundle of them.
 */
class PublishedArtifactsTest {
    private static final Path REPO = Path.of(System.getProperty("ledgerlink.maven-repo"));
    private static final String VERSION = System.getProperty("ledgerlink.version");
    private static final Path ROOT = Path.of(System.getProperty("ledgerlink.root"));
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final List<String> PUBLISHED = List.of("parent", "signature", "h2-fix", "server", "client", "sandbox", "testcontainers");
    private static final List<String> REQUIRED = List.of("groupId", "artifactId", "version", "name", "description", "url",
            "licenses/license/name", "licenses/license/url", "developers/developer/name", "scm/url", "scm/connection",
            "scm/developerConnection", "issueManagement/url");

    @Test
    void everyPublishedPomHasWhatMavenCentralRequiresOnItsOwn() throws Exception {
        for (String module : PUBLISHED) {
            Path pom = newest(module, ".pom");
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
            var xpath = XPathFactory.newInstance().newXPath();
            for (String element : REQUIRED) {
                String value = xpath.evaluate("/*[local-name()='project']/" + element.replaceAll("(\\w+)", "*[local-name()='$1']"), doc).trim();
                assertFalse(value.isEmpty(), pom.getFileName() + " has no " + element);
                assertFalse(value.contains("${"), pom.getFileName() + "'s " + element + " is not resolved: " + value);
            }
            assertEquals(VERSION, xpath.evaluate("/*[local-name()='project']/*[local-name()='version']", doc).trim());
            NodeList versions = (NodeList) xpath.evaluate("//*[local-name()='dependency']/*[local-name()='version']", doc, XPathConstants.NODESET);
            for (int i = 0; i < versions.getLength(); i++) {
                assertFalse(versions.item(i).getTextContent().contains("${"), pom.getFileName() + ": a dependency's version is not resolved");
            }
            String first = xpath.evaluate("//*[local-name()='license'][1]/*[local-name()='name']", doc);
            assertEquals(module.equals("h2-fix") ? "MPL-2.0" : "Apache-2.0", first, module + "'s licence (H2's file keeps H2's)");
        }
    }

    @Test
    void everyPublishedArtifactHasSourcesJavadocChecksumsAndSignaturesGpgAccepts() throws Exception {
        for (String module : PUBLISHED) {
            if (module.equals("parent")) continue;
            for (String kind : List.of(".jar", "-sources.jar", "-javadoc.jar")) newest(module, kind);
        }
        // scripts/maven-bundle checks that every file has a .md5 and a .sha1 that match it (and a signature once one has).
        Path bundle = TARGET.resolve("maven-central-bundle.zip");
        run(List.of(ROOT.resolve("scripts/maven-bundle").toString(), REPO.toString(), VERSION, bundle.toString()), Map.of());
        List<String> entries = new ArrayList<>();
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            zip.stream().forEach(e -> entries.add(e.getName()));
        }
        for (String module : PUBLISHED) {
            String dir = "dev/ledgerlink/ledgerlink-" + module + "/" + VERSION + "/";
            assertTrue(entries.stream().anyMatch(e -> e.startsWith(dir) && e.endsWith(".pom")), dir + " in the bundle");
            assertTrue(entries.stream().anyMatch(e -> e.startsWith(dir) && e.endsWith(".pom.sha1")), dir + " checksums in the bundle");
        }
        assertTrue(entries.stream().noneMatch(e -> e.contains("maven-metadata")), "the portal takes no maven-metadata.xml");

        String keyname = System.getProperty("ledgerlink.gpg.keyname", "");
        List<Path> signatures = files(".asc");
        if (keyname.isEmpty() || keyname.startsWith("${")) {
            assertEquals(List.of(), signatures, "a build without a key signs nothing");
            return;
        }
        // Verified as a user would: with the public key alone, in a GnuPG home that holds nothing else.
        Path home = TARGET.resolve("gnupg-verify");
        deleteTree(home);
        Files.createDirectories(home);
        run(List.of("gpg", "--homedir", System.getProperty("ledgerlink.gpg.homedir"), "--batch", "--armor", "--output",
                home.resolve("signer.asc").toString(), "--export", keyname), Map.of());
        run(List.of("gpg", "--homedir", home.toString(), "--batch", "--quiet", "--import", home.resolve("signer.asc").toString()), Map.of());
        List<Path> signed = new ArrayList<>();
        try {
            for (Path file : files("")) {
                String name = file.getFileName().toString();
                if (name.matches(".*\\.(asc|md5|sha1|sha256|sha512)$") || name.startsWith("maven-metadata")) continue;
                Path asc = file.resolveSibling(name + ".asc");
                assertTrue(Files.exists(asc), file + " is signed");
                run(List.of("gpg", "--homedir", home.toString(), "--batch", "--verify", asc.toString(), file.toString()), Map.of());
                signed.add(file);
            }
        } finally {
            run(List.of("gpgconf", "--homedir", home.toString(), "--kill", "gpg-agent"), Map.of());
        }
        assertTrue(signed.size() >= 4 * (PUBLISHED.size() - 1) + 1, "signatures checked: " + signed);
    }

    /** The newest file of a module's version that ends so (a snapshot deploy names each with its time stamp). */
    private static Path newest(String module, String suffix) throws IOException {
        Path dir = REPO.resolve("dev/ledgerlink/ledgerlink-" + module + "/" + VERSION);
        try (Stream<Path> s = Files.list(dir)) {
            TreeMap<String, Path> byName = new TreeMap<>();
            s.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(suffix) && (!suffix.equals(".jar") || !n.matches(".*-(sources|javadoc|tests)\\.jar"));
            }).forEach(p -> byName.put(p.getFileName().toString(), p));
            assertFalse(byName.isEmpty(), "ledgerlink-" + module + " has a " + suffix + " in " + dir);
            return byName.lastEntry().getValue();
        }
    }

    private static List<Path> files(String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(REPO.resolve("dev/ledgerlink"))) {
            return s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(suffix))
                    .filter(p -> PUBLISHED.stream().anyMatch(m -> p.toString().contains("/ledgerlink-" + m + "/" + VERSION + "/"))).sorted().toList();
        }
    }

    private static String run(List<String> command, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(TARGET, "run", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), String.join(" ", command) + " ends");
            String output = Files.readString(out);
            assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + output);
            return output;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
