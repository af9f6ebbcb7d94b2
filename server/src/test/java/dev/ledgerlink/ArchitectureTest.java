package dev.ledgerlink;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package graph of docs/architecture.md ("The allowed package graph"), enforced: every import
 * between packages of dev.ledgerlink must be an arrow of {@link #GRAPH}, every package must be in it,
 * and there is no cycle. A package belongs to the longest line of the graph that names it or a
 * package above it (web.console is part of web; store.migration has a line of its own). The wiring
 * (classes directly in dev.ledgerlink) may use anything.
 */
class ArchitectureTest {
    private static final String ROOT = "dev.ledgerlink";
    private static final String WIRING = "(wiring)";
    private static final String OUTSIDE = "(not ledgerlink)";
    private static final String SANDBOX = "sandbox";

    /** One line per package. A new package is one more line here and the same line in docs/architecture.md. */
    private static final List<Node> GRAPH = List.of(
            foundation("config"),
            foundation("errors"),
            foundation("net"),
            foundation("secrets", "config"),
            foundation("store", "config", "errors", "store.migration"),
            foundation("store.migration"),
            foundation("json", "errors"),
            foundation("paging", "errors"),
            foundation("signature"),
            foundation("logging", "config"),
            foundation("audit"),
            foundation("retry"),
            foundation("tracing", "config"),
            capability("accounts"),
            capability("notifications"),
            capability("oauth", "accounts", "notifications"),
            capability("events"),
            capability("callbacks", "accounts", "oauth", "events"),
            capability("delivery", "callbacks", "oauth", "notifications"),
            capability("sandbox", "accounts", "oauth", "events", "callbacks", "delivery"),
            capability("retention", "delivery", "events", "oauth", "notifications"),
            front("web"),
            front("cli"));

    private enum Kind { FOUNDATION, CAPABILITY, FRONT }

    private record Node(String name, Kind kind, Set<String> also) {}

    /** A base package: may import only the foundation packages listed. */
    private static Node foundation(String name, String... imports) {
        return new Node(name, Kind.FOUNDATION, Set.of(imports));
    }

    /** A capability: may import every foundation package and the capabilities listed; never web, cli or the wiring. */
    private static Node capability(String name, String... capabilities) {
        return new Node(name, Kind.CAPABILITY, Set.of(capabilities));
    }

    /** A front end: may import foundation, capabilities, the wiring's Services, and the front ends listed. */
    private static Node front(String name, String... fronts) {
        return new Node(name, Kind.FRONT, Set.of(fronts));
    }

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void everyImportBetweenPackagesIsAnArrowOfTheGraph() {
        Map<String, Set<String>> allowed = allowed();
        Set<String> violations = new TreeSet<>();
        for (JavaClass c : MAIN) {
            String from = node(c);
            if (from.equals(WIRING)) continue;
            if (!allowed.containsKey(from)) {
                violations.add("package " + from + " is not in ArchitectureTest.GRAPH (add its line, and to docs/architecture.md)");
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (!target.getPackageName().startsWith(ROOT)) continue;
                String to = node(target);
                if (to.equals(from) || allowed.get(from).contains(to)) continue;
                violations.add(from + " -> " + to + ": " + d.getDescription());
            }
        }
        assertEquals(List.of(), new ArrayList<>(violations), "imports that docs/architecture.md does not allow");
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String node = node(c);
                return node.equals(WIRING) || node.equals(OUTSIDE) ? SliceIdentifier.ignore() : SliceIdentifier.of(node);
            }

            @Override
            public String getDescription() {
                return "the packages of ArchitectureTest.GRAPH";
            }
        }).should().beFreeOfCycles().check(MAIN);
    }

    /**
     * Development mode plugs into production code only at seams chosen at wiring (delivery.DeliveryHooks,
     * the web layer's sandbox route hooks, the sandbox's offset of store.ServiceClock): no foundation
     * package or capability other than the sandbox imports the sandbox package, whatever the graph's
     * lines say.
     */
    @Test
    void noProductionPackageDependsOnTheSandbox() {
        Set<String> violations = new TreeSet<>();
        for (JavaClass c : MAIN) {
            String from = node(c);
            if (!isProduction(from)) continue;
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                if (d.getTargetClass().getPackageName().startsWith(ROOT) && node(d.getTargetClass()).equals(SANDBOX)) {
                    violations.add(from + " -> sandbox: " + d.getDescription());
                }
            }
        }
        assertEquals(List.of(), new ArrayList<>(violations), "production code that reaches into development mode");
    }

    /**
     * Nor does any statement of theirs name a table of the sandbox's (its test deliveries, faults,
     * journal, seeds): the claim and send paths of a production server never join or consult them.
     * The one exception is the clock's: store.ServiceClock reads sandbox_state, whose mark a
     * production server clears at start, and never its offset outside development mode.
     */
    @Test
    void noProductionStatementNamesATableOfTheSandbox() throws IOException {
        Pattern sandboxTable = Pattern.compile("\\b(test_deliveries|sandbox_(?!state\\b)[a-z_]+)\\b");
        Set<String> violations = new TreeSet<>();
        Path sources = Path.of("src/main/java", ROOT.split("\\."));
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), ".");
                if (pkg.isEmpty() || !isProduction(nodeOfPackage(pkg)) || pkg.equals("store.migration")) continue;
                var m = sandboxTable.matcher(Files.readString(f));
                while (m.find()) violations.add(sources.relativize(f) + ": " + m.group());
            }
        }
        assertEquals(List.of(), new ArrayList<>(violations), "production statements naming development mode's tables");
    }

    /** A foundation package or a capability, other than the sandbox. */
    private static boolean isProduction(String node) {
        return !node.equals(SANDBOX) && GRAPH.stream().anyMatch(n -> n.name().equals(node) && n.kind() != Kind.FRONT);
    }

    private static Map<String, Set<String>> allowed() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Node n : GRAPH) {
            Set<String> a = new TreeSet<>(n.also());
            if (n.kind() != Kind.FOUNDATION) GRAPH.stream().filter(m -> m.kind() == Kind.FOUNDATION).forEach(m -> a.add(m.name()));
            if (n.kind() == Kind.FRONT) {
                GRAPH.stream().filter(m -> m.kind() == Kind.CAPABILITY).forEach(m -> a.add(m.name()));
                a.add(WIRING);
            }
            out.put(n.name(), a);
        }
        return out;
    }

    /** The line of the graph a class belongs to: the longest that names its package or one above it; else its top-level package. */
    private static String node(JavaClass c) {
        String p = c.getPackageName();
        if (p.equals(ROOT)) return WIRING;
        if (!p.startsWith(ROOT + ".")) return OUTSIDE;
        return nodeOfPackage(p.substring(ROOT.length() + 1));
    }

    /** As {@link #node}, for a package named below dev.ledgerlink. */
    private static String nodeOfPackage(String rest) {
        String node = null;
        for (Node n : GRAPH) {
            boolean covers = rest.equals(n.name()) || rest.startsWith(n.name() + ".");
            if (covers && (node == null || n.name().length() > node.length())) node = n.name();
        }
        if (node != null) return node;
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
