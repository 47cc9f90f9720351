package io.stillwater.engine.expr;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/** A small builder for expression trees in tests, mirroring how SQL spells them. */
final class ExprBuilder {
    private ExprBuilder() {}

    static final EvalContext CTX = new EvalContext(Instant.parse("2024-01-31T13:04:05.123456Z"), ZoneId.of("UTC"), "alice", "shop");

    static final SqlType INT = SqlType.INTEGER, BIG = SqlType.BIGINT, SMALL = SqlType.SMALLINT, NUM = SqlType.NUMERIC,
            F8 = SqlType.DOUBLE, F4 = SqlType.REAL, TEXT = SqlType.TEXT, BOOL = SqlType.BOOLEAN, DATE = SqlType.DATE,
            TIME = SqlType.TIME, TS = SqlType.TIMESTAMP, TSTZ = SqlType.TIMESTAMPTZ, IV = SqlType.INTERVAL,
            BYTEA = SqlType.BYTEA;

    /** {@code 'text'::type} as a literal. */
    static Expr lit(SqlType type, String text) { return new Expr.Literal(DatumText.parse(type, text), type); }

    static Expr i(int v) { return new Expr.Literal(v, INT); }

    static Expr l(long v) { return new Expr.Literal(v, BIG); }

    static Expr sm(int v) { return new Expr.Literal((short) v, SMALL); }

    static Expr n(String v) { return lit(NUM, v); }

    static Expr f8(double v) { return new Expr.Literal(v, F8); }

    static Expr s(String v) { return new Expr.Literal(v, TEXT); }

    static Expr b(Boolean v) { return new Expr.Literal(v, BOOL); }

    static Expr nul(SqlType t) { return new Expr.Literal(null, t); }

    static Expr col(int index, SqlType t) { return new Expr.Column(index, t); }

    static Expr call(Func f, SqlType result, Expr... args) { return new Expr.Call(f, List.of(args), result); }

    static Expr cast(Expr e, SqlType to) { return new Expr.Cast(e, to); }

    static Object eval(Expr e) { return ExprCompiler.compile(e, CTX).eval(Row.EMPTY); }

    static Object eval(Expr e, Row row) { return ExprCompiler.compile(e, CTX).eval(row); }

    /** PostgreSQL's text output of the result; "NULL" for SQL NULL. */
    static String out(Expr e) {
        Object v = eval(e);
        return v == null ? "NULL" : DatumText.format(e.type(), v);
    }
}
