package dev.ledgerlink.sandbox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shape of what a reset restored, shared by the API route and the CLI. */
public final class ResetJson {
    private ResetJson() {}

    public static Map<String, Object> of(SandboxReset.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seeds", r.seeds());
        m.put("created", r.seeded().stream().flatMap(s -> s.created().stream()).toList());
        Map<String, String> secrets = new LinkedHashMap<>();
        r.seeded().forEach(s -> secrets.putAll(s.generatedSecrets()));
        m.put("client_secrets", secrets);
        m.put("demo", r.demo().map(d -> {
            Map<String, Object> demo = new LinkedHashMap<>();
            demo.put("email", d.user().email());
            demo.put("password", d.password());
            demo.put("account_id", d.account().accountId());
            demo.put("client_id", d.app().application().clientId());
            demo.put("client_secret", d.app().clientSecret());
            return demo;
        }).orElse(null));
        return m;
    }

    /** One line per fact, for people. */
    public static String describe(SandboxReset.Result r) {
        StringBuilder b = new StringBuilder("sandbox reset: ");
        if (r.seeds().isEmpty()) {
            b.append("no seed file kept; demo data made");
            r.demo().ifPresent(d -> b.append("\n  ").append(d.user().email()).append(" / ").append(d.password())
                    .append(", client_id ").append(d.app().application().clientId()).append(", client_secret ").append(d.app().clientSecret()));
        } else {
            b.append(String.join(", ", r.seeds())).append(" applied again");
            List<String> created = r.seeded().stream().flatMap(s -> s.created().stream()).toList();
            b.append(" (").append(created.size()).append(" created)");
            r.seeded().forEach(s -> s.generatedSecrets().forEach((id, secret) -> b.append("\n  client_secret of ").append(id)
                    .append(": ").append(secret).append(" (shown only now)")));
        }
        return b.toString();
    }
}
