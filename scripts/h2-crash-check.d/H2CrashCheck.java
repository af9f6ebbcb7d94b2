// scripts/h2-crash-check: after the kill, looks up every id the writer printed (an event with its
// four rows); prints "acked=A rows=R missing=M".
import java.sql.*;
import java.nio.file.*;
import java.util.*;
public class H2CrashCheck {
  public static void main(String[] a) throws Exception {
    String url = "jdbc:h2:file:" + a[0] + ";WRITE_DELAY=0;AUTO_SERVER=TRUE;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
    Set<Long> have = new HashSet<>();
    try (Connection c = DriverManager.getConnection(url)) {
      ResultSet rs = c.createStatement().executeQuery("select id from ev where (select count(*) from dl where dl.ev = ev.id) = 4");
      while (rs.next()) have.add(rs.getLong(1));
    }
    int missing = 0, acked = 0;
    for (String l : Files.readAllLines(Path.of(a[1]))) {
      l = l.trim(); if (l.isEmpty()) continue;
      try { long id = Long.parseLong(l); acked++; if (!have.contains(id)) { missing++; System.out.println("MISSING " + id); } } catch (NumberFormatException e) {}
    }
    System.out.println("acked=" + acked + " rows=" + have.size() + " missing=" + missing);
  }
}
