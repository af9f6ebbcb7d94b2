package dev.ledgerlink.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** All figures of one run: printed as a table, written as JSON with the machine facts beside them. */
public final class Report {
    private final List<Figure> figures = new ArrayList<>();
    private final Map<String, Object> facts = new LinkedHashMap<>();

    public synchronized void add(Figure f) {
        figures.add(f);
    }

    public synchronized void addAll(List<Figure> fs) {
        figures.addAll(fs);
    }

    public void fact(String key, Object value) {
        facts.put(key, value);
    }

    public synchronized List<Figure> figures() { return List.copyOf(figures); }

    /** The run's facts (machine, build, tracing, ...), as results.json has them. */
    public Map<String, Object> facts() { return java.util.Collections.unmodifiableMap(facts); }

    public void printTable(PrintStream out) {
        String fmt = "%-10s %-44s %-8s %12s %-8s %-16s %s%n";
        out.printf(fmt, "scenario", "metric", "db", "value", "unit", "target", "note");
        out.println("-".repeat(140));
        for (Figure f : figures()) {
            String v = f.isMeasured() ? format(f.value()) : "-";
            out.printf(fmt, f.scenario(), f.metric(), f.db(), v, f.unit(), f.target() == null ? "" : f.target(),
                    f.note() == null ? "" : f.note());
        }
    }

    static String format(double v) {
        if (Math.abs(v) >= 100) return String.format("%,.0f", v);
        if (Math.abs(v) >= 10) return String.format("%.1f", v);
        return String.format("%.2f", v);
    }

    /** The same table as Markdown (docs/BENCHMARKS.md quotes it), machine facts first. */
    public void writeMarkdown(Path file) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("| fact | value |\n|---|---|\n");
        facts.forEach((k, v) -> {
            if (!k.equals("profiles")) sb.append("| ").append(k).append(" | ").append(cell(String.valueOf(v))).append(" |\n");
        });
        sb.append("\n| scenario | metric | db | value | unit | target | note |\n|---|---|---|---:|---|---|---|\n");
        for (Figure f : figures()) {
            sb.append("| ").append(f.scenario()).append(" | ").append(cell(f.metric())).append(" | ").append(f.db()).append(" | ")
                    .append(f.isMeasured() ? format(f.value()) : "not measured").append(" | ").append(f.unit()).append(" | ")
                    .append(f.target() == null ? "" : cell(f.target())).append(" | ").append(f.note() == null ? "" : cell(f.note()))
                    .append(" |\n");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(file, sb.toString());
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    public void writeJson(Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", facts);
        root.put("figures", figures());
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
    }
}
