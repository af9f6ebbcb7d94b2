package dev.ledgerlink.cli;

import dev.ledgerlink.Services;
import dev.ledgerlink.sandbox.SandboxClock;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ledgerlink sandbox clock [advance PT13H | set INSTANT | reset]}: the sandbox's movable clock (sandbox.SandboxClock). */
@Command(name = "clock", mixinStandardHelpOptions = true,
        description = "Show the sandbox's clock; move it forward (advance), set it (set) or put it back to real time (reset). "
                + "Every process of the sandbox follows within a quarter of a second.",
        subcommands = {SandboxClockCommand.Advance.class, SandboxClockCommand.Set.class, SandboxClockCommand.Reset.class})
final class SandboxClockCommand extends ServiceCommand {
    @Override
    void run(Services s) {
        show(this, new SandboxClock(s.clock()).read());
    }

    @Command(name = "advance", mixinStandardHelpOptions = true, description = "Move the clock forward by an ISO-8601 duration (PT13H, P5D).")
    static final class Advance extends ServiceCommand {
        @Parameters(paramLabel = "DURATION", description = "A positive ISO-8601 duration: PT13H, PT12H1M, P5D.")
        String by;

        @Override
        void run(Services s) {
            show(this, new SandboxClock(s.clock()).advance(by));
        }
    }

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Set the clock to an instant, not before real time.")
    static final class Set extends ServiceCommand {
        @Parameters(paramLabel = "INSTANT", description = "An ISO-8601 instant in UTC: 2027-01-01T00:00:00Z.")
        String at;

        @Override
        void run(Services s) {
            show(this, new SandboxClock(s.clock()).set(at));
        }
    }

    @Command(name = "reset", mixinStandardHelpOptions = true, description = "Put the clock back to real time.")
    static final class Reset extends ServiceCommand {
        @Override
        void run(Services s) {
            show(this, new SandboxClock(s.clock()).reset());
        }
    }

    private static void show(ServiceCommand command, SandboxClock.Reading r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("now", r.now().toString());
        out.put("offset", r.offset().toString());
        command.print(out, "sandbox time: " + r.now() + (r.offset().isZero() ? " (real time)" : " (" + r.offset() + " ahead of real time)"));
    }
}
