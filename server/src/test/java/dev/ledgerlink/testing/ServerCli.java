package dev.ledgerlink.testing;

import dev.ledgerlink.cli.Main;
import dev.ledgerlink.config.Setting;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs the real CLI in-process on a running test server's database (same secrets key), as an operator on that host would. */
public final class ServerCli {
    private ServerCli() {}

    public static Cli.Result run(TestServer server, String... args) {
        var settings = server.services().settings();
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.addAll(List.of("--db", settings.get(Setting.DB_URL), "--set", "db.user=" + settings.get(Setting.DB_USER),
                "--set", "secrets.key=" + settings.get(Setting.SECRETS_KEY)));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Cli.Result(code, out.toString(), err.toString());
    }

    /** Runs it and expects exit 0 and one JSON object on stdout (pass --json). */
    public static com.fasterxml.jackson.databind.JsonNode json(TestServer server, String... args) {
        Cli.Result r = run(server, args);
        if (r.exitCode() != 0) throw new AssertionError("exit " + r.exitCode() + ": " + r.out() + r.err());
        return r.json();
    }
}
