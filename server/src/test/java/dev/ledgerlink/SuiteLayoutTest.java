package dev.ledgerlink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import dev.ledgerlink.testing.FrontEnd;
import dev.ledgerlink.testing.H2Only;
import dev.ledgerlink.testing.Heavy;
import dev.ledgerlink.testing.PostgresOnly;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * How the suite is laid out (docs/testing.md), kept true as tests are added. The tags say what the
 * classes do ("Which pass runs a class"), so that a new test lands where it belongs without anyone
 * remembering to put it there. {@link Heavy} is
 * derived from the classes' bytecode: a test class that starts a child process or a browser, itself
 * or through any helper of the test tree (a server process, a PostgreSQL cluster, node), must carry
 * it, and no other class may, so {@code scripts/test --quick} can never pick up a heavy test silently
 * and never loses a quick one. The database tags cannot be derived; they are checked for sense. And
 * the modules that run the passes side by side (suites/) have the server's test class path.
 */
class SuiteLayoutTest {
    /** What a heavy class uses, itself or through a helper: processes are started with these, browsers by these. */
    private static final Set<String> HEAVY_ROOTS = Set.of(
            "java.lang.ProcessBuilder",
            "org.openqa.selenium.chrome.ChromeDriver",
            "org.openqa.selenium.chrome.ChromeDriverService");

    private static final JavaClasses TEST_CLASSES = new ClassFileImporter().importLocations(Set.of(Location.of(testClasses())));

    @Test
    void aClassIsHeavyExactlyWhenItStartsAProcessOrABrowser() {
        Set<String> heavy = heavyTopLevelClasses();
        Map<String, String> wrong = new TreeMap<>();
        for (JavaClass c : TEST_CLASSES) {
            if (!isTestClass(c)) continue;
            boolean tagged = c.isAnnotatedWith(Heavy.class);
            boolean uses = heavy.contains(c.getName());
            if (uses && !tagged) wrong.put(c.getName(), "starts a process or a browser (" + why(c.getName()) + "): annotate it @Heavy");
            if (tagged && !uses) wrong.put(c.getName(), "is @Heavy but starts no process or browser: remove the tag, or quick runs miss it");
        }
        assertEquals(Map.of(), wrong, "docs/testing.md, \"Which pass runs a class\"");
    }

    @Test
    void databaseTagsMakeSense() {
        List<String> wrong = new ArrayList<>();
        for (JavaClass c : TEST_CLASSES) {
            boolean h2 = c.isAnnotatedWith(H2Only.class), pg = c.isAnnotatedWith(PostgresOnly.class), front = c.isAnnotatedWith(FrontEnd.class);
            if (h2 && pg) wrong.add(c.getName() + " is @H2Only and @PostgresOnly: it would never run");
            if (front && pg) wrong.add(c.getName() + " is @FrontEnd (H2 pass) and @PostgresOnly: it would never run");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theSuitesModulesHaveTheServersTestDependencies() throws Exception {
        // What does not come to suites/ through its dependency on the server: test scope, optional ones.
        Set<String> server = dependencies(Path.of("pom.xml"), d -> "test".equals(text(d, "scope")) || "true".equals(text(d, "optional")));
        Set<String> suites = dependencies(Path.of("..", "suites", "pom.xml"), d -> true);
        server.removeAll(suites);
        assertEquals(Set.of(), server, "test and optional dependencies of server/pom.xml missing from suites/pom.xml");
    }

    /** groupId:artifactId of a POM's dependencies that {@code which} takes. */
    private static Set<String> dependencies(Path pom, java.util.function.Predicate<org.w3c.dom.Element> which) throws Exception {
        var doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        var project = doc.getDocumentElement();
        Set<String> found = new TreeSet<>();
        for (var deps = project.getFirstChild(); deps != null; deps = deps.getNextSibling()) {
            if (!"dependencies".equals(deps.getNodeName())) continue;
            var list = ((org.w3c.dom.Element) deps).getElementsByTagName("dependency");
            for (int i = 0; i < list.getLength(); i++) {
                var d = (org.w3c.dom.Element) list.item(i);
                if (!which.test(d)) continue;
                found.add(text(d, "groupId") + ":" + text(d, "artifactId"));
            }
        }
        return found;
    }

    private static String text(org.w3c.dom.Element e, String tag) {
        var nodes = e.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().trim();
    }

    /** Top-level classes whose code, or the code of a test-tree class they use (transitively), touches a heavy root. */
    private static Set<String> heavyTopLevelClasses() {
        Map<String, Set<String>> uses = new HashMap<>();   // top-level class -> top-level classes and roots it uses
        for (JavaClass c : TEST_CLASSES) {
            Set<String> targets = uses.computeIfAbsent(topLevel(c.getName()), k -> new HashSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getName();
                if (HEAVY_ROOTS.contains(target)) targets.add(target);
                else if (TEST_CLASSES.contain(target)) targets.add(topLevel(target));
            }
        }
        Set<String> heavy = new HashSet<>(HEAVY_ROOTS);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<String, Set<String>> e : uses.entrySet()) {
                if (!heavy.contains(e.getKey()) && e.getValue().stream().anyMatch(heavy::contains)) grew = heavy.add(e.getKey()) || grew;
            }
        }
        CHAINS.clear();
        uses.forEach((k, v) -> CHAINS.put(k, new TreeSet<>(v.stream().filter(t -> heavy.contains(t) && !t.equals(k)).toList())));
        return heavy;
    }

    private static final Map<String, Set<String>> CHAINS = new HashMap<>();

    /** Which heavy things a class uses directly: the first link of the chain, enough to find the rest. */
    private static String why(String className) {
        return String.join(", ", CHAINS.getOrDefault(className, Set.of()));
    }

    /** What surefire runs: a top-level class named *Test. */
    private static boolean isTestClass(JavaClass c) {
        return c.getEnclosingClass().isEmpty() && c.getSimpleName().endsWith("Test") && !c.isAnnotation() && !c.isInterface();
    }

    private static String topLevel(String name) {
        int i = name.indexOf('$');
        return i < 0 ? name : name.substring(0, i);
    }

    private static Path testClasses() {
        try {
            return Path.of(SuiteLayoutTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
