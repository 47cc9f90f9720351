package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * psycopg2 in its default mode (not autocommit: it sends BEGIN before the first statement
 * of each transaction) and its named (server-side) cursors, which it runs as DECLARE /
 * FETCH FORWARD itersize / CLOSE; and psql's ON_ERROR_ROLLBACK, which wraps each statement
 * of a block in a savepoint.
 */
class Psycopg2TransactionsTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    @Test
    void theDefaultModeRunsSelectThenWritesCommitAndRollback() throws Exception {
        String out = ClientProcess.psycopg2(db.port(), "materialize", "materialize", """
                import os, psycopg2
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True  # DDL is refused inside a block (25001)
                cur = conn.cursor()
                cur.execute("CREATE TABLE IF NOT EXISTS items(id INT, qty INT)")
                conn.autocommit = False
                cur.execute("SELECT count(*) FROM items")
                print(cur.fetchone()[0])
                cur.execute("INSERT INTO items VALUES (%s, %s), (%s, %s)", (1, 10, 2, 20))
                cur.execute("UPDATE items SET qty = qty + 1 WHERE id = %s", (1,))
                print(cur.rowcount)
                cur.execute("DELETE FROM items WHERE id = 2")
                print(cur.rowcount)
                cur.execute("SELECT id, qty FROM items ORDER BY id")
                print(cur.fetchall())
                conn.commit()
                cur.execute("UPDATE items SET qty = 0")
                conn.rollback()
                cur.execute("SELECT id, qty FROM items ORDER BY id")
                print(cur.fetchall())
                conn.commit()
                conn.close()
                """).ok();
        assertThat(out.strip().lines()).containsExactly("0", "1", "1", "[(1, 11)]", "[(1, 11)]");
    }

    @Test
    void namedCursorsFetchInItersizePieces() throws Exception {
        String out = ClientProcess.psycopg2(db.port(), "materialize", "materialize", """
                import os, psycopg2
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True  # DDL is refused inside a block (25001)
                cur = conn.cursor()
                cur.execute("CREATE TABLE IF NOT EXISTS big(n INT)")
                conn.autocommit = False
                cur.execute("INSERT INTO big SELECT * FROM generate_series(1, 25000)")
                conn.commit()
                named = conn.cursor(name="walk")
                named.itersize = 1000
                named.execute("SELECT n FROM big ORDER BY n")
                total = 0
                count = 0
                for (n,) in named:
                    total += n
                    count += 1
                print(count, total)
                named.close()
                other = conn.cursor(name="few")
                other.execute("SELECT n FROM big WHERE n <= 5 ORDER BY n")
                print(other.fetchmany(2), other.fetchone(), other.fetchall())
                other.close()
                conn.commit()
                held = conn.cursor(name="held", withhold=True)
                held.execute("SELECT n FROM big WHERE n > 24990 ORDER BY n")
                print(held.fetchone())
                conn.commit()  # a WITH HOLD cursor stays readable after its block commits
                print(len(held.fetchall()))
                held.close()
                conn.close()
                """).ok();
        assertThat(out.strip().lines()).containsExactly("25000 312512500", "[(1,), (2,)] (3,) [(4,), (5,)]", "(24991,)",
                "9");
    }

    @Test
    void psqlOnErrorRollbackKeepsTheBlockAlive() throws Exception {
        String out = ClientProcess.psql(db.port(), "materialize", "materialize", """
                \\set ON_ERROR_ROLLBACK on
                CREATE TABLE IF NOT EXISTS psql_t(a INT);
                BEGIN;
                INSERT INTO psql_t VALUES (1);
                INSERT INTO psql_t VALUES (1 / 0);
                INSERT INTO psql_t VALUES (2);
                COMMIT;
                SELECT count(*) AS n FROM psql_t;
                """, "-X", "-q", "-t", "-A").out();
        assertThat(out.strip().lines().toList()).last().isEqualTo("2");
    }
}
