package dev.ledgerlink.net;

import java.util.List;
import java.util.Locale;

/**
 * The names container engines give the machine a container runs on: Docker Desktop's and Linux
 * Docker's {@code --add-host host.docker.internal:host-gateway}, podman's
 * {@code host.containers.internal}, and Testcontainers' {@code host.testcontainers.internal}
 * (exposeHostPorts). A sandbox in a container reaches a receiver on the developer's machine through
 * them, so development mode allows http callbacks to them as it does to loopback hosts
 * ({@link PublicAddressGate#httpRefusal}); redirect URIs are not among them (the browser that opens a
 * redirect runs on the host, where these names mean nothing). By name only, never a DNS lookup.
 */
public final class ContainerHostNames {
    /** In the order the refusal message lists them. */
    public static final List<String> ALL = List.of("host.docker.internal", "host.containers.internal", "host.testcontainers.internal");

    private ContainerHostNames() {}

    public static boolean is(String host) {
        return host != null && ALL.contains(host.toLowerCase(Locale.ROOT));
    }
}
