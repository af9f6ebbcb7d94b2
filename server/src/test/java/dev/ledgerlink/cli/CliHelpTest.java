package dev.ledgerlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import dev.ledgerlink.testing.FrontEnd;

/** `ledgerlink COMMAND --help` explains every option and parameter of every command (picocli's model, walked). */
@FrontEnd
class CliHelpTest {
    @Test
    void everyOptionAndParameterOfEveryCommandHasADescription() {
        CommandLine root = new CommandLine(new Main());
        List<String> undescribed = new ArrayList<>();
        int checked = walk(root, undescribed);
        assertTrue(checked > 50, "walked " + checked + " options and parameters: the whole tree");
        assertEquals(List.of(), undescribed, "options and parameters whose --help line would be empty");
    }

    private static int walk(CommandLine command, List<String> undescribed) {
        CommandSpec spec = command.getCommandSpec();
        int checked = 0;
        for (OptionSpec o : spec.options()) {
            checked++;
            if (!described(o)) undescribed.add(spec.qualifiedName() + " " + o.longestName());
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            checked++;
            if (!described(p)) undescribed.add(spec.qualifiedName() + " " + p.paramLabel());
        }
        for (CommandLine sub : command.getSubcommands().values()) checked += walk(sub, undescribed);
        return checked;
    }

    private static boolean described(ArgSpec a) {
        return Arrays.stream(a.description()).anyMatch(line -> !line.isBlank());
    }
}
