package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.testing.Fixtures;
import dev.ledgerlink.testing.TestServer;
import org.junit.jupiter.api.Test;

/**
 * dev.callback-hosts over the API: a development server accepts http:// callback URIs to the hosts
 * it lists (a compose file's service names) besides loopback, refuses every other http host as
 * before, and a production server ignores the setting.
 */
class DevCallbackHostsTest {
    @Test
    void registrationIsAcceptedForAListedHostAndRefusedForOthers() {
        try (TestServer dev = TestServer.start(s -> s.set(Setting.DEV_CALLBACK_HOSTS, "app, receiver"))) {
            CallbackApi api = CallbackApi.of(Fixtures.create(dev), "user:invoices:read");
            var listed = api.register("invoice", "http://receiver:8000/webhooks");
            assertEquals(200, listed.status(), listed.body());
            var other = api.register("invoice", "http://db:5432/webhooks");
            assertEquals(422, other.status(), other.body());
            assertTrue(other.body().contains("dev.callback-hosts"), other.body());
            assertEquals(200, api.register("invoice", "http://127.0.0.1:9/loopback").status(), "loopback as before");
            assertEquals(200, api.register("invoice", "http://host.containers.internal:9/webhooks").status(), "a container's host, as loopback");
        }
    }

    @Test
    void productionModeIgnoresIt() {
        try (TestServer prod = TestServer.start(s -> s.set(Setting.DEV, "false").set(Setting.DEV_CALLBACK_HOSTS, "receiver"))) {
            CallbackApi api = CallbackApi.of(Fixtures.create(prod, "https://app.example.com/callback"), "user:invoices:read");
            var r = api.register("invoice", "http://receiver:8000/webhooks");
            assertEquals(422, r.status(), r.body());
            assertTrue(r.body().contains("must use https"), r.body());
        }
    }
}
