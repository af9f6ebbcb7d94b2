package dev.ledgerlink.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.client.LedgerlinkClient;
import dev.ledgerlink.testcontainers.LedgerlinkContainer;
import org.junit.jupiter.api.Test;

/**
 * withReuse(true) with reuse enabled (testcontainers.reuse.enable; the surefire configuration sets
 * TESTCONTAINERS_REUSE_ENABLE, as a developer sets it in ~/.testcontainers.properties): construction
 * chooses nothing at random, so a second run of the same configuration finds the first run's
 * container and uses it, operator key and all. The test removes the container afterwards.
 */
class ContainerReuseTest {

    /** What a test class declares: the same every run. */
    private static LedgerlinkContainer sandbox() {
        return new LedgerlinkContainer(ContainerImages.ledgerlink()).withSeed(Sh.ROOT.resolve("docs/sandbox-seed.yaml"))
                .withSetting("delivery.retry-schedule", "PT1S,PT5S").withReuse(true);
    }

    @Test
    void aSecondRunWithTheSameConfigurationReusesTheContainer() throws Exception {
        PodmanSocket.start();
        LedgerlinkContainer first = sandbox(), second = sandbox();
        try {
            first.start();                              // a run of a test; reuse keeps its container when the JVM ends
            String token = first.tokens(Servers.SANDBOX_USER, Servers.SANDBOX_APP).accessToken();

            second.start();                             // the next run: the same container, as it was left
            assertEquals(first.getContainerId(), second.getContainerId(), "reused, not created");
            assertEquals(first.baseUrl(), second.baseUrl());
            assertEquals(first.operatorKey(), second.operatorKey(), "read from the container, not made up again");
            LedgerlinkClient client = Servers.sandboxClient(second.baseUrl());
            assertEquals("Dana", client.me(token).firstName(), "the first run's token: the same database");
            second.reset();                             // what a test on a reused sandbox does first
            assertEquals(1, Podman.ok("ps", "--all", "--quiet", "--filter", "id=" + second.getContainerId()).lines().count());
        } finally {
            second.stop();                              // removes it (a developer's reused container stays until removed)
            if (first.getContainerId() != null) Podman.remove(first.getContainerId());   // had the second run failed to find it
        }
        assertTrue(Podman.ok("ps", "--all", "--quiet", "--filter", "id=" + first.getContainerId()).isBlank(), "the test removed its container");
    }
}
