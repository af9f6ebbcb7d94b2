package dev.ledgerlink.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where ledgerlink's fix of H2's commit runs and where H2's own does. Each case in a class loader of its
 * own (the server's classes, H2, the fix, SLF4J's API), as a fresh process would load them, since a JVM
 * defines the commit class once.
 */
class H2CommitFixTest {
    private static final String DESCRIPTOR = "META-INF/ledgerlink/h2-fix.properties";

    @TempDir
    Path dir;

    @Test
    void theFixRunsInTheH2ItWasMadeFor() throws Exception {
        try (URLClassLoader process = process(true, null)) {
            assertEquals("INSTALLED", install(process));
            assertTrue(inUse(process));
        }
    }

    @Test
    void anotherH2VersionRunsItsOwnClass() throws Exception {
        // The fix as it would be for another H2 than the one in use: its descriptor comes first.
        Path other = dir.resolve("other");
        Files.createDirectories(other.resolve("META-INF/ledgerlink"));
        Files.writeString(other.resolve(DESCRIPTOR), "h2.version=2.4.240\nclass=" + H2CommitFix.CLASS + "\n");
        try (URLClassLoader process = process(true, other.toUri().toURL())) {
            assertEquals("OTHER_H2_VERSION", install(process));
            assertFalse(inUse(process), "H2's own commit class");
        }
    }

    @Test
    void withoutTheArtifactH2RunsItsOwnClass() throws Exception {
        try (URLClassLoader process = process(false, null)) {
            assertEquals("ABSENT", install(process));
            assertFalse(inUse(process));
        }
    }

    @Test
    void anH2UsedBeforeTheServerOpenedItsDatabaseKeepsItsOwnClass() throws Exception {
        try (URLClassLoader process = process(true, null)) {
            Class.forName(H2CommitFix.CLASS, false, process);   // H2 committed before ledgerlink's Database.open
            assertEquals("TOO_LATE", install(process));
            assertFalse(inUse(process));
        }
    }

    /** A class loader like a new process's: the server's classes, H2, SLF4J's API and (or not) the fix; {@code first} ahead of them. */
    private static URLClassLoader process(boolean withFix, URL first) throws Exception {
        List<URL> path = new ArrayList<>();
        if (first != null) path.add(first);
        path.add(location(H2CommitFix.class));
        path.add(location(org.h2.engine.Constants.class));
        path.add(location(org.slf4j.Logger.class));
        if (withFix) {
            String fix = H2CommitFix.class.getClassLoader().getResource(DESCRIPTOR).toString();
            path.add(new URL(fix.substring(0, fix.length() - DESCRIPTOR.length())));
        }
        return new URLClassLoader(path.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    private static String install(ClassLoader process) throws Exception {
        return call(process, "install").toString();
    }

    private static boolean inUse(ClassLoader process) throws Exception {
        return (Boolean) call(process, "inUse");
    }

    private static Object call(ClassLoader process, String method) throws Exception {
        Method m = Class.forName(H2CommitFix.class.getName(), true, process).getDeclaredMethod(method);
        m.setAccessible(true);
        return m.invoke(null);
    }
}
