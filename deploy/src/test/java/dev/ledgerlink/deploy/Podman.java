package dev.ledgerlink.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** podman with this project's settings (deploy/podman/containers.conf: runc, 1024 file limits). */
final class Podman {
    static final Map<String, String> ENV = Map.of("CONTAINERS_CONF", Sh.ROOT.resolve("deploy/podman/containers.conf").toString());

    private Podman() {}

    static Sh.Result run(String... args) {
        return run(Duration.ofMinutes(3), args);
    }

    static Sh.Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return Sh.run(ENV, null, timeout, command.toArray(String[]::new));
    }

    static String ok(String... args) {
        return run(args).ok().out().trim();
    }

    /** Removes a container whatever its state, with its anonymous volumes (the images declare one); for finally blocks. */
    static void remove(String container) {
        run(Duration.ofMinutes(1), "rm", "--force", "--volumes", "--time", "5", container);
    }

    /** What the container wrote, stdout and stderr (the server logs on stderr). */
    static String logs(String container) {
        Sh.Result r = run("logs", container);
        return r.out() + r.err();
    }

    static String uniqueName(String what) {
        return "ledgerlink-test-" + what + "-" + Long.toHexString(System.nanoTime() & 0xffffffL);
    }
}
