package dev.ledgerlink.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's chromium and chromedriver, headless, with a fresh profile; Selenium Manager never downloads anything. */
public final class Chromium {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {}

    /** A headless browser whose window is {@code width} x {@code height}; findElement waits up to 30 s for the next page. */
    public static ChromeDriver start(Path profile, int width, int height) {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium is not installed: run `bash scripts/ensure-chromium` (Debian packages chromium and chromium-driver)");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=" + width + "," + height, "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=" + profile.toAbsolutePath()));
        ChromeDriver driver = new ChromeDriver(service, options);
        // findElement waits for the next page instead of the test sleeping.
        driver.manage().timeouts().implicitlyWait(Duration.ofSeconds(30));
        return driver;
    }

    public static ChromeDriver start(Path profile) {
        return start(profile, 1280, 900);
    }
}
