package dev.ledgerlink.cli;

import dev.ledgerlink.config.Settings;
import dev.ledgerlink.secrets.KeyCheck;
import dev.ledgerlink.secrets.KeyRing;
import dev.ledgerlink.secrets.KeyRotation;
import dev.ledgerlink.secrets.SecretBox;
import dev.ledgerlink.secrets.SecretKeys;
import dev.ledgerlink.secrets.WrongKey;
import dev.ledgerlink.store.Database;
import dev.ledgerlink.store.PendingMigrations;
import dev.ledgerlink.store.SchemaStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "secrets", mixinStandardHelpOptions = true,
        description = "The secrets key that seals verification codes at rest: make one, see which the database has, rotate it "
                + "(docs/operations.md, \"Keys\").",
        subcommands = {SecretsCommand.NewKey.class, SecretsCommand.Status.class, SecretsCommand.RotateKey.class})
final class SecretsCommand {

    @Command(name = "new-key", mixinStandardHelpOptions = true,
            description = "Print a new random key (base64, 32 bytes) on stdout and its fingerprint on stderr. Touches no database.")
    static final class NewKey implements Callable<Integer> {
        @Option(names = "--json", description = "Print exactly one JSON object on stdout.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String key = SecretBox.newKeyBase64();
            String fingerprint = SecretBox.fromBase64(key).keyId();
            if (json) {
                Output.print(spec, true, Map.of("key", key, "fingerprint", fingerprint), "");
            } else {
                spec.commandLine().getOut().println(key);
                spec.commandLine().getOut().flush();
                spec.commandLine().getErr().println("fingerprint " + fingerprint);
            }
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "The database's key (fingerprint; during a rotation also the key being replaced), the fingerprints of the keys "
                    + "this configuration gives (secrets.key or its key file, secrets.previous-key), and how many sealed values each "
                    + "key holds. Changes nothing.")
    static final class Status extends StoreCommand {
        @Override
        public Integer call() {
            Settings settings = store.settingsBuilder().build();
            try (Database db = DatabaseCommand.connect(settings)) {
                List<KeyCheck.Recorded> recorded = KeyCheck.recorded(db.jdbi());
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("database_key", recorded.stream().filter(k -> k.role().equals("current")).map(KeyCheck.Recorded::keyId).findFirst().orElse(null));
                result.put("retiring_key", recorded.stream().filter(k -> k.role().equals("retiring")).map(KeyCheck.Recorded::keyId).findFirst().orElse(null));
                StringBuilder human = new StringBuilder("database key: " + (result.get("database_key") == null ? "none recorded yet" : result.get("database_key")));
                if (result.get("retiring_key") != null) human.append(" (rotation from ").append(result.get("retiring_key")).append(" under way)");
                try {
                    KeyRing ring = SecretKeys.load(settings, false, null);
                    result.put("configured_key", ring.current().keyId());
                    result.put("configured_previous_key", ring.previous().map(SecretBox::keyId).orElse(null));
                    human.append("\nthis configuration: secrets.key ").append(ring.current().keyId())
                            .append(ring.previous().map(p -> ", secrets.previous-key " + p.keyId()).orElse(""));
                } catch (WrongKey none) {
                    result.put("configured_key", null);
                    human.append("\nthis configuration gives no key");
                }
                Map<String, Map<String, Long>> census = KeyRotation.census(db.jdbi());
                result.put("sealed_values", census);
                census.forEach((column, perKey) -> human.append("\n").append(column).append(": ")
                        .append(perKey.isEmpty() ? "no values" : perKey.toString().replaceAll("[{}]", "").replace("=", ": ")));
                print(result, human.toString());
                return 0;
            }
        }
    }

    @Command(name = "rotate-key", mixinStandardHelpOptions = true,
            description = "Re-seal every sealed value with secrets.key, reading those still sealed with the database's current key "
                    + "through secrets.previous-key, while the nodes keep serving; run it once every node runs with both settings. "
                    + "Works in batches, each its own transaction; killed, run it again and it goes on from where the values stand. "
                    + "Then remove secrets.previous-key from the nodes (docs/operations.md, \"Keys\").")
    static final class RotateKey extends StoreCommand {
        @Option(names = "--batch-size", defaultValue = "500", description = "Values re-sealed per transaction (default 500).")
        int batchSize;

        @Option(names = "--pause", defaultValue = "PT0S", paramLabel = "DURATION",
                description = "Pause between batches, to spare a busy database (ISO-8601, default PT0S).")
        Duration pause;

        @Override
        public Integer call() throws InterruptedException {
            if (batchSize < 1) throw dev.ledgerlink.errors.ServiceException.invalid("batch-size", "must be at least 1");
            Settings settings = store.settingsBuilder().build();
            dev.ledgerlink.logging.LogFormat.apply(settings);
            try (Database db = DatabaseCommand.connect(settings)) {
                SchemaStatus schema = db.schemaStatus();
                if (!schema.canServe()) throw new PendingMigrations(schema.pending(), Duration.ZERO);
                KeyRing ring = SecretKeys.load(settings, false, null);
                var err = spec.commandLine().getErr();
                KeyRotation.Result r = new KeyRotation(db.jdbi(), ring, Clock.systemUTC()).run(batchSize, pause, p -> {
                    err.println("ledgerlink: re-sealed " + p.resealed() + " values of " + p.column() + " (" + p.remaining() + " left in this pass)");
                    err.flush();
                });
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("from", r.from());
                result.put("to", r.to());
                result.put("resumed", r.resumed());
                result.put("resealed", r.resealed());
                print(result, "every sealed value is now sealed with the key " + r.to() + (r.resumed() ? " (a rotation resumed)" : "")
                        + "; re-sealed " + r.resealed().toString().replaceAll("[{}]", "").replace("=", ": ")
                        + (r.from().equals(r.to()) ? "" : ". Remove secrets.previous-key (" + r.from() + ") from every node"));
                return 0;
            }
        }
    }
}
