package dev.ledgerlink.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.interactions.Actions;

/**
 * A page's accessibility check in the real browser: axe-core (installed from the npm registry into
 * target/axe on first use, never vendored) run against the WCAG 2 A/AA and best-practice rules, which
 * include labels, heading order, landmarks, contrast and focusable-element rules; then one h1 per page
 * and the keyboard: Tab alone reaches every link, button and form field of the page, in order.
 */
public final class Accessibility {
    static final String AXE_VERSION = "4.14.1";
    static final Path AXE_DIR = Path.of("target", "axe");
    static final Path AXE = AXE_DIR.resolve("node_modules/axe-core/axe.min.js");
    private static String source;

    private Accessibility() {}

    /** Asserts the page has no axe violations, exactly one h1, and every interactive element reachable by Tab. */
    public static void check(WebDriver driver, String page) {
        JavascriptExecutor js = (JavascriptExecutor) driver;
        js.executeScript(axeSource());
        Object result = js.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
                   .then(r => done(r.violations.map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at '
                                   + v.nodes.map(n => n.target.join(' ')).join(', '))))
                   .catch(e => done(['axe failed: ' + e]));""");
        assertEquals(List.of(), result, "axe-core violations on " + page);
        assertEquals(1L, js.executeScript("return document.querySelectorAll('h1').length;"), "one h1 on " + page);
        keyboardReachesEverything(driver, page);
    }

    @SuppressWarnings("unchecked")
    private static void keyboardReachesEverything(WebDriver driver, String page) {
        JavascriptExecutor js = (JavascriptExecutor) driver;
        List<String> interactive = (List<String>) js.executeScript("""
                const all = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')];
                all.forEach((el, i) => el.dataset.a11yId = 'e' + i);
                return all.filter(el => el.offsetParent !== null && !el.disabled).map(el => el.dataset.a11yId);""");
        js.executeScript("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);");
        List<String> reached = new ArrayList<>();
        Actions keys = new Actions(driver);
        for (int i = 0; i < interactive.size() * 2 + 5 && !reached.containsAll(interactive); i++) {
            keys.sendKeys(Keys.TAB).perform();
            Object id = js.executeScript("return document.activeElement && document.activeElement.dataset.a11yId || null;");
            if (id != null && !reached.contains(id)) reached.add((String) id);
        }
        List<String> missed = new ArrayList<>(interactive);
        missed.removeAll(reached);
        List<Object> described = missed.isEmpty() ? List.of() : (List<Object>) js.executeScript(
                "return arguments[0].map(id => document.querySelector('[data-a11y-id=\"' + id + '\"]').outerHTML.slice(0, 120));", missed);
        assertTrue(missed.isEmpty(), "not reachable with Tab on " + page + ": " + described);
    }

    private static synchronized String axeSource() {
        if (source != null) return source;
        try {
            InstallLock.holding(AXE_DIR, () -> { if (!Files.exists(AXE)) install(); });
            source = Files.readString(AXE, StandardCharsets.UTF_8);
            return source;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** npm install axe-core@AXE_VERSION --prefix target/axe (the npm registry, through npm itself). */
    private static void install() throws IOException {
        Files.createDirectories(AXE_DIR);
        Process p = new ProcessBuilder("npm", "install", "--prefix", AXE_DIR.toString(), "--no-save", "--no-audit", "--no-fund",
                "--no-package-lock", "axe-core@" + AXE_VERSION)
                .redirectErrorStream(true).redirectOutput(AXE_DIR.resolve("npm-install.log").toFile()).start();
        try {
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0 || !Files.exists(AXE)) {
                p.destroyForcibly();
                throw new AssertionError("could not install axe-core with npm (see " + AXE_DIR.resolve("npm-install.log").toAbsolutePath()
                        + "): " + Files.readString(AXE_DIR.resolve("npm-install.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
