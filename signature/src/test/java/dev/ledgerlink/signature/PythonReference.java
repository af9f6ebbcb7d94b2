package dev.ledgerlink.signature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Runs python3 to compute what a Python receiver computes: json.dumps of the dict (defaults) and its
 * base64 HMAC-SHA256. Values travel as hex of their UTF-8 bytes so nothing of ours encodes them.
 */
final class PythonReference {
    private static final String SCRIPT = """
            import sys, json, hmac, hashlib, base64
            args = [bytes.fromhex(a).decode('utf-8') for a in sys.argv[1:]]
            code, pairs = args[0], args[1:]
            d = {}
            for i in range(0, len(pairs), 2):
                d[pairs[i]] = pairs[i + 1]
            msg = json.dumps(d)
            sig = base64.b64encode(hmac.new(code.encode('utf-8'), msg.encode('utf-8'), hashlib.sha256).digest()).decode()
            print(msg.encode('utf-8').hex())
            print(sig)
            """;

    record Result(String json, String signature) {}

    static Result compute(String code, FormParams params) {
        List<String> cmd = new ArrayList<>(List.of("python3", "-c", SCRIPT, hex(code)));
        for (FormParams.Param p : params.params()) {
            cmd.add(hex(p.name()));
            cmd.add(hex(p.value()));
        }
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) throw new AssertionError("python3 failed: " + out);
            String[] lines = out.strip().split("\n");
            return new Result(new String(HexFormat.of().parseHex(lines[0].strip()), StandardCharsets.UTF_8), lines[1].strip());
        } catch (IOException e) {
            throw new AssertionError("python3 is needed to compute the reference signatures", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }
}
