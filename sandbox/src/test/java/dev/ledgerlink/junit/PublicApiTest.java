package dev.ledgerlink.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.HasDescription;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What integration developers compile against names no type of the server module: the public and
 * protected signatures (supertypes, fields, constructors, methods with their parameters, results,
 * type arguments and exceptions) of the JUnit sandbox ({@code dev.ledgerlink.junit}), the
 * Testcontainers module ({@code dev.ledgerlink.testcontainers}) and the sandbox API they share
 * ({@code dev.ledgerlink.client.sandbox}) use only the JDK, JUnit, Testcontainers and the client
 * library. So a refactoring inside the server never breaks their tests.
 */
class PublicApiTest {
    private static final String[] PUBLIC_PACKAGES = {"dev.ledgerlink.junit", "dev.ledgerlink.testcontainers", "dev.ledgerlink.client.sandbox"};
    /** Of ledgerlink's own packages, these may appear in those signatures: the client library and the public packages themselves. */
    private static final String CLIENT = "dev.ledgerlink.client";

    @Test
    void thePublicSignaturesOfTheSandboxModulesNameNoServerType() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(PUBLIC_PACKAGES);
        Set<String> names = Set.copyOf(classes.stream().map(JavaClass::getSimpleName).toList());
        assertEquals(true, names.containsAll(Set.of("LedgerlinkSandbox", "LedgerlinkContainer", "Sandbox", "SandboxControls")),
                "the classes integration developers use are among those checked: " + names);
        assertEquals(List.of(), serverTypesInPublicSignatures(classes));
    }

    /** The check itself finds a server type in a public signature (so it is not vacuously green). */
    @Test
    void aServerTypeInAPublicSignatureIsFound() {
        JavaClasses leaky = new ClassFileImporter().importClasses(Leaky.class);
        List<String> found = serverTypesInPublicSignatures(leaky);
        assertEquals(3, found.size(), found.toString());
        assertEquals(true, found.stream().allMatch(f -> f.contains("dev.ledgerlink.Services") || f.contains("dev.ledgerlink.sandbox.JournalEntry")),
                found.toString());
    }

    /** A public class leaking server types in a result, a type argument and a field: what the check must report. */
    public static final class Leaky {
        public dev.ledgerlink.Services services;

        public List<dev.ledgerlink.sandbox.JournalEntry> requests() {
            return List.of();
        }

        public void use(dev.ledgerlink.Services services) {}

        private dev.ledgerlink.Services hidden() {
            return null;
        }
    }

    private static List<String> serverTypesInPublicSignatures(JavaClasses classes) {
        List<String> found = new ArrayList<>();
        for (JavaClass c : classes) {
            if (!isPublic(c.getModifiers())) continue;
            c.getSuperclass().ifPresent(t -> check(c, t, found));
            c.getInterfaces().forEach(t -> check(c, t, found));
            for (JavaField f : c.getFields()) {
                if (isPublic(f.getModifiers())) check(f, f.getType(), found);
            }
            for (JavaCodeUnit u : c.getCodeUnits()) {
                if (!isPublic(u.getModifiers()) || u.getModifiers().contains(JavaModifier.SYNTHETIC) || u.getModifiers().contains(JavaModifier.BRIDGE)) continue;
                if (u.isMethod()) check(u, u.getReturnType(), found);
                u.getParameterTypes().forEach(t -> check(u, t, found));
                u.getThrowsClause().getTypes().forEach(t -> check(u, t, found));
            }
        }
        return found;
    }

    private static boolean isPublic(Set<JavaModifier> modifiers) {
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }

    private static void check(HasDescription where, JavaType type, List<String> found) {
        for (JavaClass raw : type.getAllInvolvedRawTypes()) {
            String name = raw.getName();
            if (name.startsWith("dev.ledgerlink.") && !name.startsWith(CLIENT + ".") && !isPublicPackage(raw.getPackageName())) {
                found.add(where.getDescription() + " names " + name);
            }
        }
    }

    private static boolean isPublicPackage(String pkg) {
        for (String p : PUBLIC_PACKAGES) if (pkg.equals(p)) return true;
        return false;
    }
}
