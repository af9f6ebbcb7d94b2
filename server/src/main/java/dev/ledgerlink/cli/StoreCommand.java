package dev.ledgerlink.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A command on the configured database (the shared store options) that prints one result, --json or lines. */
abstract class StoreCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout.")
    boolean json;

    @Spec
    CommandSpec spec;

    void print(Map<String, ?> result, String human) {
        Output.print(spec, json, result, human);
    }
}
