package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table changes TableWriter makes of the rows INSERT, UPDATE and DELETE produce. */
class TableWriterTest {
    /** t (id bigint NOT NULL, name text DEFAULT 'none'), id 1001. */
    static final TableDef T = new TableDef(1001, "t", List.of(
            new ColumnDef("id", SqlType.BIGINT, true, null),
            new ColumnDef("name", SqlType.TEXT, false, "none")));

    static QueryPlan source(List<SqlType> types, Row... rows) {
        List<String> names = types.stream().map(t -> "c").toList();
        return new QueryPlan(new PlanNode.Constant(List.of(rows), types), List.of(), -1, 0, names, types);
    }

    @Test
    void insertCastsByAssignmentAndFillsDefaults() {
        // INSERT INTO t (id) VALUES (7): an integer into a bigint column, name takes its default.
        QueryPlan values = source(List.of(SqlType.INTEGER), Row.of(7));
        var ins = new Statement.Insert(T, new int[] {0}, values, List.of());
        List<TableChange> changes = TableWriter.insertions(ins, List.of(Row.of(7)));
        assertThat(changes).containsExactly(new TableChange(1001, Row.of(7L, "none"), 1));
    }

    @Test
    void insertOfNullIntoNotNullColumnNamesColumnRelationAndRow() {
        var ins = new Statement.Insert(T, new int[] {1, 0}, source(List.of(SqlType.TEXT, SqlType.BIGINT)), List.of());
        assertThatThrownBy(() -> TableWriter.insertions(ins, List.of(Row.of("a", null))))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.NOT_NULL_VIOLATION);
                    assertThat(e.getMessage()).isEqualTo(
                            "null value in column \"id\" of relation \"t\" violates not-null constraint");
                    assertThat(e.detail()).isEqualTo("Failing row contains (null, a).");
                });
    }

    @Test
    void updateRetractsTheOldRowAndInsertsTheNewOne() {
        // UPDATE t SET name = 'b': each match is the old row, then the SET value.
        var upd = new Statement.Update(T, new int[] {1}, source(List.of()), List.of());
        List<SqlType> matchTypes = List.of(SqlType.BIGINT, SqlType.TEXT, SqlType.TEXT);
        List<TableChange> changes = TableWriter.updates(upd, matchTypes, List.of(Row.of(1L, "a", "b")));
        assertThat(changes).containsExactly(
                new TableChange(1001, Row.of(1L, "a"), -1),
                new TableChange(1001, Row.of(1L, "b"), 1));
    }

    @Test
    void updateToNullInNotNullColumnFailsBeforeAnyChange() {
        var upd = new Statement.Update(T, new int[] {0}, source(List.of()), List.of());
        List<SqlType> matchTypes = List.of(SqlType.BIGINT, SqlType.TEXT, SqlType.BIGINT);
        assertThatThrownBy(() -> TableWriter.updates(upd, matchTypes, List.of(Row.of(1L, "a", null))))
                .isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.NOT_NULL_VIOLATION));
    }

    @Test
    void deleteRetractsEveryMatchOnce() {
        List<TableChange> changes = TableWriter.deletions(T, List.of(Row.of(1L, "a"), Row.of(1L, "a")));
        assertThat(changes).containsExactly(
                new TableChange(1001, Row.of(1L, "a"), -1),
                new TableChange(1001, Row.of(1L, "a"), -1));
    }
}
