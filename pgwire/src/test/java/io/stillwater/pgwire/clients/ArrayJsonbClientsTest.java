package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arrays and jsonb through real clients: psycopg2 adapts Python lists to arrays and
 * {@code Json} to jsonb and reads them back as lists and dicts (its typecasters go by the
 * array and jsonb OIDs); psql prints PostgreSQL's text forms.
 */
class ArrayJsonbClientsTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    @Test
    void psycopg2AdaptsListsAndJson() throws Exception {
        String out = ClientProcess.psycopg2(db.port(), "materialize", "materialize", """
                import os, psycopg2, psycopg2.extras
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True
                cur = conn.cursor()
                cur.execute("CREATE TABLE pyt (id int, xs int[], ts text[], doc jsonb)")
                cur.execute("INSERT INTO pyt VALUES (%s, %s, %s, %s)",
                            (1, [1, None, 3], ['a b', 'x"y', ''], psycopg2.extras.Json({'k': [1, 2.5], 'z': None})))
                cur.execute("SELECT xs, ts, doc, doc->'k' FROM pyt WHERE id = ANY(%s)", ([1, 2],))
                print(cur.fetchall())
                conn.close()
                """).ok();
        assertThat(out.strip()).isEqualTo("[([1, None, 3], ['a b', 'x\"y', ''], {'k': [1, 2.5], 'z': None}, [1, 2.5])]");
    }

    @Test
    void psqlPrintsTextForms() throws Exception {
        String out = ClientProcess.psql(db.port(), "materialize", "materialize",
                "SELECT ARRAY['a b', NULL], '{\"b\":1,\"a\":[true]}'::jsonb, ARRAY[[1,2],[3,4]];\n", "-A", "-t").ok();
        assertThat(out.strip()).isEqualTo("{\"a b\",NULL}|{\"a\": [true], \"b\": 1}|{{1,2},{3,4}}");
    }
}
