// Reproduces the H2 2.5.252 defect recorded in docs/operations.md ("Durability and failure"):
// evidence/stuck-row.mv.db is the database CrashDurabilityTest left after three kill -9s (CI run of
// 2026-11-23). Deliveries 291-322 are pending and due; updating them one by one, as the engine's
// claim does, updates 291-305 at once and then spins on 306 (RUNNABLE, 100% of a core, no lock
// timeout): a row whose entry still names a transaction that no longer exists.
// Run on a copy:  cp evidence/stuck-row.mv.db /tmp/s.mv.db
//   java -cp h2-2.5.252.jar H2StuckRow.java /tmp/s      (give it 30 s; it never gets past 306)
import java.sql.*;
import java.time.*;

public class H2StuckRow {
  public static void main(String[] a) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + a[0]
        + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;LOCK_TIMEOUT=3000;WRITE_DELAY=0", "sa", "")) {
      OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
      PreparedStatement ps = c.prepareStatement("update deliveries set lease_owner = ?, next_attempt_at = ? where id = ?"
          + " and (case when state = 'pending' and next_attempt_at <= ? then 1 else 0 end) = 1");
      for (long id = 291; id <= 322; id++) {
        ps.setString(1, "probe"); ps.setObject(2, now.plusSeconds(3)); ps.setLong(3, id); ps.setObject(4, now);
        long t = System.nanoTime();
        int n = ps.executeUpdate();
        System.out.println(id + " -> " + n + " in " + (System.nanoTime() - t) / 1_000_000 + " ms");
      }
    }
  }
}
