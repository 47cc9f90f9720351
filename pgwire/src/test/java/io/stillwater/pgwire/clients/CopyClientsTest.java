package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COPY through real clients: psql's {@code \copy} both ways and psycopg2's {@code copy_expert}. */
class CopyClientsTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    @Test
    void psqlBackslashCopyLoadsAFileAndWritesOneBack(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in.csv");
        Path out = dir.resolve("out.csv");
        Files.writeString(in, "id,name\n1,alpha\n2,\"be,ta\"\n3,\n");
        String printed = ClientProcess.psql(db.port(), "materialize", "materialize", """
                CREATE TABLE cc_psql (id INT, name TEXT);
                \\copy cc_psql from '%s' with csv header
                \\copy (SELECT * FROM cc_psql ORDER BY id) to '%s' with (format csv, header)
                SELECT count(*), count(name) FROM cc_psql;
                """.formatted(in, out), "-v", "ON_ERROR_STOP=1", "-A", "-t").ok();
        assertThat(printed).contains("COPY 3").contains("3|2");
        assertThat(Files.readString(out)).isEqualTo("id,name\n1,alpha\n2,\"be,ta\"\n3,\n");
    }

    @Test
    void psqlInlineCopyDataAndAnErrorNamingTheLine() throws Exception {
        ClientProcess.Result r = ClientProcess.psql(db.port(), "materialize", "materialize", """
                CREATE TABLE cc_inline (a INT, b TEXT);
                COPY cc_inline FROM STDIN;
                1\tone
                2\ttwo
                \\.
                COPY cc_inline FROM STDIN;
                3\tthree
                x\tfour
                \\.
                SELECT count(*) FROM cc_inline;
                """, "-A", "-t");
        assertThat(r.out()).contains("COPY 2").contains("\n2\n");
        assertThat(r.err()).contains("ERROR:  invalid input syntax for type integer: \"x\"")
                .contains("CONTEXT:  COPY cc_inline, line 2, column a: \"x\"");
    }

    @Test
    void psycopg2CopyExpertBothWays() throws Exception {
        String out = ClientProcess.psycopg2(db.port(), "materialize", "materialize", """
                import io, os, psycopg2
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True
                cur = conn.cursor()
                cur.execute("CREATE TABLE cc_py (a INT, b TEXT)")
                cur.copy_expert("COPY cc_py FROM STDIN WITH (FORMAT csv)", io.StringIO("1,x\\n2,\\"y\\"\\"z\\"\\n"))
                print(cur.rowcount)
                buf = io.StringIO()
                cur.copy_expert("COPY (SELECT * FROM cc_py ORDER BY a) TO STDOUT WITH (FORMAT csv)", buf)
                print(repr(buf.getvalue()))
                try:
                    cur.copy_expert("COPY cc_py FROM STDIN", io.StringIO("3\\tok\\nbad\\tno\\n"))
                except psycopg2.Error as e:
                    print(e.pgcode, e.diag.context)
                cur.execute("SELECT count(*) FROM cc_py")
                print(cur.fetchone()[0])
                """).ok();
        assertThat(out.lines().toList()).containsExactly(
                "2", "'1,x\\n2,\"y\"\"z\"\\n'", "22P02 COPY cc_py, line 2, column a: \"bad\"", "2");
    }
}
