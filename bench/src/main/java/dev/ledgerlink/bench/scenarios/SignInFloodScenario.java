package dev.ledgerlink.bench.scenarios;

import dev.ledgerlink.bench.BenchConfig;
import dev.ledgerlink.bench.BenchRun;
import dev.ledgerlink.bench.Scenario;
import dev.ledgerlink.bench.http.Http1Connection;
import dev.ledgerlink.bench.load.Latencies;
import dev.ledgerlink.bench.oauth.BrowserSession;
import dev.ledgerlink.bench.oauth.HtmlForms;
import dev.ledgerlink.bench.proc.ServerProcess;
import dev.ledgerlink.bench.proc.Usage;
import dev.ledgerlink.bench.report.Figure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A sign-in flood, as production runs it (OWASP's Argon2id cost, the launcher's heap): N browsers,
 * each from its own address (X-Forwarded-For through a trusted proxy, so the per-address throttle
 * does not stop them) and with its own unknown e-mail (checked against the dummy hash all the same),
 * load the authorization page's sign-in form, then all post it at once, each on a new connection.
 * Every post must be answered: with the form again after its password was checked (200), or with a
 * 503 and Retry-After when its turn for hashing memory did not come within secrets.argon2-max-wait.
 * No connection may be refused or reset, and resident memory stays under the footprint bound. Then a
 * real user signs in at once (the consent page): nothing of the flood was counted against anyone.
 */
public final class SignInFloodScenario implements Scenario {
    private static final String PASSWORD = "bench sign-in flood password";
    private static final String REDIRECT_URI = "https://client.example/callback";

    @Override
    public String name() { return "signin"; }

    @Override
    public List<Figure> run(BenchRun run) throws Exception {
        return onEachDatabase(run, stage -> runOn(run.config(), stage));
    }

    private List<Figure> runOn(BenchConfig c, BenchRun.Stage stage) throws Exception {
        String db = stage.label();
        int n = c.quick() ? 10 : 400;
        String email = "flood." + System.nanoTime() + "@example.com";
        stage.settings.put("http.trusted-proxies", "127.0.0.1,::1");
        String[] clientId = new String[1];
        stage.setup(s -> {
            s.users().create(email, PASSWORD, "Bench", "User");
            clientId[0] = s.applications().create("Sign-in flood", List.of(REDIRECT_URI), List.of("user:profile:read"))
                    .application().clientId();
        });
        String authorize = "/oauth/authorize?response_type=code&client_id=" + BrowserSession.enc(clientId[0])
                + "&redirect_uri=" + BrowserSession.enc(REDIRECT_URI);
        ServerProcess server = stage.start(false);
        int port = server.port();

        List<Form> forms = new ArrayList<>();
        for (int i = 0; i < n; i++) forms.add(Form.load(port, authorize, "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255)));
        Usage usage = Usage.start(server.pid(), stage.postgres());
        CyclicBarrier go = new CyclicBarrier(n);
        List<Future<Answer>> answers = new ArrayList<>();
        long start = System.nanoTime();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                Form form = forms.get(i);
                String unknown = "nobody" + i + "." + System.nanoTime() + "@example.com";
                answers.add(pool.submit(() -> {
                    go.await();
                    return form.post(port, unknown, "wrong password");
                }));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Usage.Summary used = usage.stop();

        Map<String, Integer> byOutcome = new TreeMap<>();
        Latencies checked = new Latencies(n);
        Latencies busy = new Latencies(n);
        Latencies all = new Latencies(n);
        int busyWithRetryAfter = 0;
        for (Future<Answer> f : answers) {
            Answer a = f.get();
            byOutcome.merge(a.outcome(), 1, Integer::sum);
            all.add(a.nanos());
            if (a.status() == 200) checked.add(a.nanos());
            if (a.status() == 503) {
                busy.add(a.nanos());
                if (a.retryAfter() != null) busyWithRetryAfter++;
            }
        }
        int answered = checked.size() + busy.size();
        Answer after = Form.load(port, authorize, "10.255.255.254").post(port, email, PASSWORD);
        boolean consentShown = after.status() == 200 && after.consent();

        String note = String.format("%d sign-ins at once in %.1f s: %s; %d of the 503s with Retry-After; the user's own sign-in "
                + "afterwards answered %d%s; %s", n, seconds, byOutcome, busyWithRetryAfter, after.status(),
                consentShown ? " (the consent page)" : " (NOT the consent page)", used.describe());
        List<Figure> out = new ArrayList<>();
        out.add(Figure.measured(name(), n + " sign-ins at once: answered (form again, or 503 with Retry-After)", db,
                100.0 * answered / n, "%", "100", note).with("outcomes", byOutcome).with("user_signs_in_after", consentShown));
        out.add(Figure.measured(name(), "passwords checked per second during the flood", db, checked.size() / seconds, "/s", null,
                "OWASP cost (19 MiB, 2 iterations); one hash at a time in the launcher's 96 MiB heap"));
        out.add(Figure.measured(name(), "answer time, p99 of all", db, all.percentileMillis(0.99), "ms", null,
                String.format("checked: p50 %.0f ms, p99 %.0f ms; 503: p50 %.0f ms, p99 %.0f ms (secrets.argon2-max-wait, 5 s, plus the "
                        + "wait for a CPU on a machine busy hashing)", checked.percentileMillis(0.5), checked.percentileMillis(0.99),
                        busy.percentileMillis(0.5), busy.percentileMillis(0.99))));
        out.add(Figure.measured(name(), "server RSS peak during the flood", db, used.peakRssMib(), "MiB", "<= 300", ""));
        return out;
    }

    /** {@code consent}: the answer is the consent page (the sign-in succeeded). */
    record Answer(String outcome, int status, long nanos, String retryAfter, boolean consent) {}

    /** The authorization page's sign-in form as one browser loaded it: its address, session cookie, action and fields. */
    record Form(String address, String cookie, String action, Map<String, String> fields) {
        static Form load(int port, String path, String address) throws IOException {
            try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
                Http1Connection.Response r = http.get(path, Map.of("X-Forwarded-For", address));
                if (r.status() != 200) throw new IOException("GET " + path + " answered " + r.status() + ": " + r.text());
                String setCookie = r.header("set-cookie");
                String cookie = setCookie == null ? "" : setCookie.split(";", 2)[0];
                HtmlForms.Form form = HtmlForms.parse(r.text()).stream().filter(HtmlForms.Form::hasPassword).findFirst()
                        .orElseThrow(() -> new IOException("the authorization page shows no sign-in form"));
                return new Form(address, cookie, form.action(), form.inputs());
            }
        }

        /** Posts the form on a new connection; a connection that fails is an outcome too, never retried. */
        Answer post(int port, String email, String password) {
            Map<String, String> values = new LinkedHashMap<>(fields);
            values.put("email", email);
            values.put("password", password);
            long t = System.nanoTime();
            try (Http1Connection http = new Http1Connection("127.0.0.1", port)) {
                Http1Connection.Response r = http.post(action, Map.of("X-Forwarded-For", address, "Cookie", cookie),
                        "application/x-www-form-urlencoded", BrowserSession.form(values));
                return new Answer(Integer.toString(r.status()), r.status(), System.nanoTime() - t, r.header("retry-after"),
                        r.text().contains("<h1>Authorize "));
            } catch (IOException e) {
                return new Answer(e.getClass().getSimpleName(), -1, System.nanoTime() - t, null, false);
            }
        }
    }
}
