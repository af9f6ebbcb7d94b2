package dev.ledgerlink.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ledgerlink.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs the real CLI in-process against one database (with its test key, unless the arguments give one) and captures what it prints. */
public final class Cli {
    private final TestDatabases.TestDb db;

    public Cli(TestDatabases.TestDb db) {
        this.db = db;
    }

    public TestDatabases.TestDb db() {
        return db;
    }

    public record Result(int exitCode, String out, String err) {
        public JsonNode json() {
            try {
                return TestHttp.JSON.readTree(out);
            } catch (Exception e) {
                throw new AssertionError("stdout is not one JSON object (exit " + exitCode + "): " + out + "\nstderr: " + err, e);
            }
        }
    }

    public Result run(String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.add("--db");
        all.add(db.url());
        if (!db.user().isEmpty()) {
            all.add("--set");
            all.add("db.user=" + db.user());
        }
        if (all.stream().noneMatch(a -> a.startsWith("secrets.key"))) {
            all.add("--set");   // the database's key, as the test servers over it hold (TestServer.keyOf)
            all.add("secrets.key=" + TestServer.keyOf(db));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }
}
