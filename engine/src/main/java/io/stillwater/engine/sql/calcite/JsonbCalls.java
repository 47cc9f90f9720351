package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds the engine's jsonb calls from translated arguments: the operators' functions
 * ({@code PG_JSON_GET} for {@code ->}, ...) and the jsonb functions, with PostgreSQL's
 * reading of untyped string literals: as jsonb where a jsonb is expected, as text[]
 * where a path is ({@code j #> '{a,0}'}).
 */
final class JsonbCalls {
    private JsonbCalls() {}

    private static final SqlType TEXT_ARRAY = SqlType.arrayOf(SqlType.TEXT);

    /** The operator functions of {@link PgInfixOperators} that are jsonb-only. */
    static final Map<String, Func> OPERATORS = Map.of(
            "PG_JSON_GET", Func.JSONB_GET, "PG_JSON_GET_TEXT", Func.JSONB_GET_TEXT,
            "PG_JSON_PATH", Func.JSONB_PATH, "PG_JSON_PATH_TEXT", Func.JSONB_PATH_TEXT,
            "PG_JSON_DELETE_PATH", Func.JSONB_DELETE_PATH, "PG_JSON_EXISTS", Func.JSONB_EXISTS,
            "PG_JSON_EXISTS_ANY", Func.JSONB_EXISTS_ANY, "PG_JSON_EXISTS_ALL", Func.JSONB_EXISTS_ALL);

    static boolean isJsonbFunc(Func f) {
        return f.name().startsWith("JSONB_") || f == Func.TO_JSONB;
    }

    /** {@code @>}, {@code <@}, {@code ||}, {@code -}: the jsonb form when an operand is jsonb. */
    static boolean involvesJsonb(List<Expr> args) {
        return args.stream().anyMatch(a -> a.type().kind() == TypeKind.JSONB);
    }

    static Expr call(Func f, List<Expr> args, SqlType type) {
        List<Expr> out = new ArrayList<>(args);
        switch (f) {
            case JSONB_GET, JSONB_GET_TEXT, JSONB_EXISTS, JSONB_TYPEOF, JSONB_ARRAY_LENGTH, JSONB_STRIP_NULLS,
                    JSONB_PRETTY, JSONB_EXTRACT_PATH, JSONB_EXTRACT_PATH_TEXT -> out.set(0, jsonb(out.get(0)));
            case JSONB_PATH, JSONB_PATH_TEXT, JSONB_DELETE_PATH, JSONB_EXISTS_ANY, JSONB_EXISTS_ALL -> {
                out.set(0, jsonb(out.get(0)));
                out.set(1, textArray(out.get(1)));
            }
            case JSONB_CONTAINS, JSONB_CONTAINED, JSONB_CONCAT -> {
                out.set(0, jsonb(out.get(0)));
                out.set(1, jsonb(out.get(1)));
            }
            case JSONB_DELETE -> out.set(0, jsonb(out.get(0)));
            case JSONB_SET -> {
                out.set(0, jsonb(out.get(0)));
                out.set(1, textArray(out.get(1)));
                out.set(2, jsonb(out.get(2)));
            }
            default -> { }
        }
        if (f == Func.JSONB_EXTRACT_PATH || f == Func.JSONB_EXTRACT_PATH_TEXT) {
            for (int i = 1; i < out.size(); i++) out.set(i, text(out.get(i)));
        }
        return new Expr.Call(f, out, type);
    }

    private static Expr jsonb(Expr e) {
        if (e.type().kind() == TypeKind.JSONB) return e;
        if (e instanceof Expr.Literal l && l.value() == null) return new Expr.Literal(null, SqlType.JSONB);
        return new Expr.Cast(e, SqlType.JSONB);
    }

    private static Expr textArray(Expr e) {
        if (e.type().equals(TEXT_ARRAY)) return e;
        return new Expr.Cast(e, TEXT_ARRAY);
    }

    private static Expr text(Expr e) {
        return TypeMapping.isStringKind(e.type().kind()) ? e : new Expr.Cast(e, SqlType.TEXT);
    }
}
