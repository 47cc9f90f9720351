package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** psycopg2 (libpq underneath, Python's DB-API on top) connects, writes and reads back. */
class Psycopg2SmokeTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    @Test
    void autocommitWritesAreReadBackWithTypedValues() throws Exception {
        String out = ClientProcess.psycopg2(db.port(), "materialize", "materialize", """
                import os, psycopg2
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True
                cur = conn.cursor()
                cur.execute("CREATE TABLE smoke(a INT, b TEXT)")
                cur.executemany("INSERT INTO smoke VALUES (%s, %s)", [(1, "one"), (2, "two")])
                cur.execute("SELECT a, b FROM smoke ORDER BY a")
                print(cur.fetchall())
                conn.close()
                """).ok();
        assertThat(out.strip()).isEqualTo("[(1, 'one'), (2, 'two')]");
    }
}
