package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Casts;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Translates Calcite row expressions into the engine's {@link Expr} over one input whose
 * column types are known. Column references take the input's exact types; casts keep
 * their type modifiers; every other computed expression is typed without modifiers.
 */
final class RexToExpr {
    private final RexBuilder rexBuilder;
    private final List<SqlType> paramTypes;

    /** Catalog functions ({@code pg_get_indexdef}, {@code ::regclass}, ...) over the statement's catalog; null: none. */
    private final PgCatalogFunctions catalogFunctions;

    RexToExpr(RexBuilder rexBuilder, List<SqlType> paramTypes) { this(rexBuilder, paramTypes, null); }

    RexToExpr(RexBuilder rexBuilder, List<SqlType> paramTypes, PgCatalogFunctions catalogFunctions) {
        this.rexBuilder = rexBuilder;
        this.paramTypes = paramTypes;
        this.catalogFunctions = catalogFunctions;
    }

    private static final Map<SqlKind, Func> BY_KIND = new HashMap<>();
    private static final Map<String, Func> BY_NAME = new HashMap<>();

    static {
        BY_KIND.put(SqlKind.PLUS, Func.PLUS);
        BY_KIND.put(SqlKind.MINUS, Func.MINUS);
        BY_KIND.put(SqlKind.TIMES, Func.TIMES);
        BY_KIND.put(SqlKind.DIVIDE, Func.DIVIDE);
        BY_KIND.put(SqlKind.MOD, Func.MOD);
        BY_KIND.put(SqlKind.CHECKED_PLUS, Func.PLUS);
        BY_KIND.put(SqlKind.CHECKED_MINUS, Func.MINUS);
        BY_KIND.put(SqlKind.CHECKED_TIMES, Func.TIMES);
        BY_KIND.put(SqlKind.CHECKED_DIVIDE, Func.DIVIDE);
        BY_KIND.put(SqlKind.PLUS, Func.PLUS);
        BY_KIND.put(SqlKind.MINUS_PREFIX, Func.NEGATE);
        BY_KIND.put(SqlKind.CHECKED_MINUS_PREFIX, Func.NEGATE);
        BY_KIND.put(SqlKind.EQUALS, Func.EQ);
        BY_KIND.put(SqlKind.NOT_EQUALS, Func.NE);
        BY_KIND.put(SqlKind.LESS_THAN, Func.LT);
        BY_KIND.put(SqlKind.LESS_THAN_OR_EQUAL, Func.LE);
        BY_KIND.put(SqlKind.GREATER_THAN, Func.GT);
        BY_KIND.put(SqlKind.GREATER_THAN_OR_EQUAL, Func.GE);
        BY_KIND.put(SqlKind.IS_DISTINCT_FROM, Func.IS_DISTINCT_FROM);
        BY_KIND.put(SqlKind.IS_NOT_DISTINCT_FROM, Func.IS_NOT_DISTINCT_FROM);
        BY_KIND.put(SqlKind.AND, Func.AND);
        BY_KIND.put(SqlKind.OR, Func.OR);
        BY_KIND.put(SqlKind.NOT, Func.NOT);
        BY_KIND.put(SqlKind.IS_NULL, Func.IS_NULL);
        BY_KIND.put(SqlKind.IS_NOT_NULL, Func.IS_NOT_NULL);
        BY_KIND.put(SqlKind.IS_TRUE, Func.IS_TRUE);
        BY_KIND.put(SqlKind.IS_NOT_TRUE, Func.IS_NOT_TRUE);
        BY_KIND.put(SqlKind.IS_FALSE, Func.IS_FALSE);
        BY_KIND.put(SqlKind.IS_NOT_FALSE, Func.IS_NOT_FALSE);
        BY_KIND.put(SqlKind.COALESCE, Func.COALESCE);
        BY_KIND.put(SqlKind.NULLIF, Func.NULLIF);
        BY_KIND.put(SqlKind.GREATEST, Func.GREATEST);
        BY_KIND.put(SqlKind.LEAST, Func.LEAST);
        BY_KIND.put(SqlKind.GREATEST_PG, Func.GREATEST);
        BY_KIND.put(SqlKind.LEAST_PG, Func.LEAST);
        BY_KIND.put(SqlKind.IN, Func.IN);

        for (Func f : Func.values()) BY_NAME.put(f.name(), f);
        BY_NAME.put("||", Func.CONCAT_OP);
        BY_NAME.put("PG_EXTRACT", Func.EXTRACT);
        BY_NAME.put("LENGTH", Func.CHAR_LENGTH);
        BY_NAME.put("CHARACTER_LENGTH", Func.CHAR_LENGTH);
        BY_NAME.put("CEILING", Func.CEIL);
        BY_NAME.put("TRUNCATE", Func.TRUNC);
        BY_NAME.put("SUBSTR", Func.SUBSTRING);
        BY_NAME.put("LOG10", Func.LOG10);
        BY_NAME.put("POW", Func.POWER);
        BY_NAME.put("CONCAT", Func.CONCAT);
        BY_NAME.put("NOT LIKE", Func.NOT_LIKE);
        BY_NAME.put("NOT ILIKE", Func.NOT_ILIKE);
        BY_NAME.put("SIMILAR TO", Func.SIMILAR_TO);
        BY_NAME.put("TRANSLATE3", Func.TRANSLATE);
        BY_NAME.put("BITAND", Func.BIT_AND);
        BY_NAME.put("BITOR", Func.BIT_OR);
        BY_NAME.put("BITXOR", Func.BIT_XOR);
        BY_NAME.put("BITNOT", Func.BIT_NOT);
        BY_NAME.put("~", Func.REGEXP_MATCH_OP);
        BY_NAME.put("POSIX REGEX (CASE SENSITIVE)", Func.REGEXP_MATCH_OP);
        BY_NAME.put("CURRENT_TIMESTAMP", Func.CURRENT_TIMESTAMP);
        BY_NAME.put("LOCALTIMESTAMP", Func.LOCALTIMESTAMP);
        BY_NAME.put("USER", Func.CURRENT_USER);
        BY_NAME.put("SESSION_USER", Func.CURRENT_USER);
        BY_NAME.put("ITEM", Func.ARRAY_SUBSCRIPT);
        BY_NAME.put("PG_SUBSCRIPT", Func.ARRAY_SUBSCRIPT);
        BY_NAME.put("PG_ANY", Func.ANY_OP);
        BY_NAME.put("PG_ALL", Func.ALL_OP);
        BY_NAME.putAll(JsonbCalls.OPERATORS);
        BY_NAME.put("PG_CONTAINS", Func.ARRAY_CONTAINS);
        BY_NAME.put("PG_CONTAINED", Func.ARRAY_CONTAINED);
        BY_NAME.put("PG_OVERLAP", Func.ARRAY_OVERLAP);
    }

    Expr translate(RexNode node, List<SqlType> input) {
        switch (node) {
            case RexInputRef ref -> {
                return new Expr.Column(ref.getIndex(), input.get(ref.getIndex()));
            }
            case RexLiteral lit -> {
                return literal(lit, literalType(lit));
            }
            case RexDynamicParam p -> {
                SqlType declared = paramTypes.get(p.getIndex());
                Expr param = new Expr.Param(p.getIndex(), declared);
                // Compare without modifiers: a parameter compared with a varchar(10) column is
                // text, and casting it to varchar(10) would truncate it.
                SqlType want = TypeMapping.fromRel(p.getType());
                return sameType(declared, want) ? param : new Expr.Cast(param, want);
            }
            case RexCall call -> {
                return call(call, input);
            }
            default -> throw unsupported("expression " + node.getKind().lowerName);
        }
    }

    List<Expr> translateAll(List<RexNode> nodes, List<SqlType> input) {
        List<Expr> out = new ArrayList<>(nodes.size());
        for (RexNode n : nodes) out.add(translate(n, input));
        return out;
    }

    static boolean sameType(SqlType a, SqlType b) {
        if (a.equals(b)) return true;
        return TypeMapping.isStringKind(a.kind()) && b.kind() == TypeKind.TEXT && b.precision() == SqlType.UNSPECIFIED
                && a.kind() != TypeKind.CHAR;
    }

    private Expr call(RexCall call, List<SqlType> input) {
        if (call instanceof RexOver) {
            // Also what the decorrelator makes of a correlated subquery with LIMIT.
            throw unsupported("window functions (and correlated subqueries with LIMIT)");
        }
        SqlKind kind = call.getKind();
        SqlType type = TypeMapping.fromRel(call.getType());
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        switch (kind) {
            case SEARCH:
                return translate(RexUtil.expandSearch(rexBuilder, null, call), input);
            case CAST:
            case SAFE_CAST: {
                Expr in = translate(call.getOperands().get(0), input);
                SqlType target = TypeMapping.fromRel(call.getType(), true);
                if (in.type().equals(target)) return in;
                if (in instanceof Expr.Literal l && l.value() == null) return new Expr.Literal(null, target);
                if (call.getOperands().get(0) instanceof RexLiteral lit && lit.getTypeName() == SqlTypeName.CHAR
                        && in instanceof Expr.Literal l && foldable(target, (String) l.value())) {
                    // An untyped literal is a constant of the target type, read by the engine's
                    // input function (PgRexBuilder kept Calcite from reading it), as PostgreSQL
                    // does at parse time: '2024-13-45'::date is an error even with no rows.
                    return new Expr.Literal(Casts.cast(l.value(), SqlType.TEXT, target), target);
                }
                return new Expr.Cast(in, target);
            }
            case CASE: {
                List<RexNode> ops = call.getOperands();
                List<Expr> conds = new ArrayList<>();
                List<Expr> results = new ArrayList<>();
                int i = 0;
                for (; i + 1 < ops.size(); i += 2) {
                    conds.add(translate(ops.get(i), input));
                    results.add(translate(ops.get(i + 1), input));
                }
                Expr otherwise = i < ops.size() ? translate(ops.get(i), input) : null;
                return new Expr.Case(conds, results, otherwise, type);
            }
            case EXTRACT: {
                // EXTRACT(flag FROM source) and DATE_PART('field', source)
                RexNode first = call.getOperands().get(0);
                Expr field = first instanceof RexLiteral l && l.getTypeName() == SqlTypeName.SYMBOL
                        ? new Expr.Literal(String.valueOf(l.getValue()).toLowerCase(Locale.ROOT), SqlType.TEXT)
                        : translate(first, input);
                Func f = name.equals("DATE_PART") ? Func.DATE_PART : Func.EXTRACT;
                return new Expr.Call(f, List.of(field, translate(call.getOperands().get(1), input)), type);
            }
            case TRIM: {
                // TRIM(flag, chars, string)
                var ops = call.getOperands();
                String flag = String.valueOf(((RexLiteral) ops.get(0)).getValue()).toUpperCase(Locale.ROOT);
                Func f = switch (flag) {
                    case "LEADING" -> Func.LTRIM;
                    case "TRAILING" -> Func.RTRIM;
                    default -> Func.BTRIM;
                };
                return new Expr.Call(f, List.of(translate(ops.get(2), input), translate(ops.get(1), input)), type);
            }
            case LIKE: {
                boolean negated = name.startsWith("NOT");
                boolean ilike = name.contains("ILIKE");
                Func f = ilike ? (negated ? Func.NOT_ILIKE : Func.ILIKE) : (negated ? Func.NOT_LIKE : Func.LIKE);
                return new Expr.Call(f, translateAll(call.getOperands(), input), type);
            }
            case SIMILAR: {
                Expr e = new Expr.Call(Func.SIMILAR_TO, translateAll(call.getOperands(), input), type);
                return name.startsWith("NOT") ? new Expr.Call(Func.NOT, List.of(e), type) : e;
            }
            case POSIX_REGEX_CASE_SENSITIVE: {
                Expr match = new Expr.Call(Func.REGEXP_MATCH_OP, translateAll(call.getOperands(), input), type);
                return name.startsWith("NEGATED") ? new Expr.Call(Func.NOT, List.of(match), type) : match;
            }
            case POSIX_REGEX_CASE_INSENSITIVE:
                throw unsupported("the case-insensitive regular expression operators ~* and !~*");
            case SOME:
            case ALL:
                return ArrayCalls.quantified(call, translateAll(call.getOperands(), input), type);
            case POSITION: {
                var args = translateAll(call.getOperands(), input);
                if (name.equals("STRPOS")) return new Expr.Call(Func.STRPOS, args, type);
                return new Expr.Call(Func.POSITION, args, type);
            }
            default:
                break;
        }
        if (name.equals("PG_TYPEOF")) {
            Expr arg = translate(call.getOperands().get(0), input);
            return new Expr.Literal(arg.type().displayName(), SqlType.TEXT);
        }
        if (catalogFunctions != null && PgCatalogFunctions.handles(name)) {
            return catalogFunctions.translate(name, translateAll(call.getOperands(), input), type);
        }
        Func f = BY_NAME.get(name);
        if (f == null) f = BY_KIND.get(kind);
        if (f == null) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "function " + call.getOperator().getName().toLowerCase(Locale.ROOT) + " is not supported");
        }
        List<Expr> args = translateAll(call.getOperands(), input);
        if ((f == Func.CONCAT_OP || f == Func.ARRAY_CONTAINS || f == Func.ARRAY_CONTAINED || f == Func.MINUS)
                && JsonbCalls.involvesJsonb(args)) {
            Func j = f == Func.CONCAT_OP ? Func.JSONB_CONCAT : f == Func.MINUS ? Func.JSONB_DELETE
                    : f == Func.ARRAY_CONTAINS ? Func.JSONB_CONTAINS : Func.JSONB_CONTAINED;
            return JsonbCalls.call(j, args, j == Func.JSONB_CONCAT || j == Func.JSONB_DELETE ? SqlType.JSONB : type);
        }
        if (JsonbCalls.isJsonbFunc(f)) return JsonbCalls.call(f, args, type);
        if (f == Func.CONCAT_OP && (args.get(0).type().isArray() || args.get(1).type().isArray())) {
            return ArrayCalls.concat(args, type);
        }
        if (ArrayCalls.isArrayFunc(f)) return ArrayCalls.call(f, args, type);
        if (f == Func.ANY_OP || f == Func.ALL_OP) return ArrayCalls.quantified(f, args, type);
        if (f == Func.NULLIF || f == Func.GREATEST || f == Func.LEAST) args = toNumericType(args, type);
        if (COMPARISON_SYMBOLS.containsKey(f) && args.size() == 2) {
            args = resolveUntypedLiteral(call.getOperands(), args);
            checkComparable(f, args.get(0), args.get(1));
        }
        return new Expr.Call(f, args, type);
    }

    /**
     * NULLIF(1, 2.0) and GREATEST(1, 2.0) are numeric (PgNumericFunctions): their numeric
     * arguments of another kind are cast to the result's, so the value returned is of the
     * result's type.
     */
    private static List<Expr> toNumericType(List<Expr> args, SqlType type) {
        if (!type.kind().isNumeric()) return args;
        List<Expr> out = new ArrayList<>(args.size());
        for (Expr a : args) {
            out.add(a.type().kind().isNumeric() && a.type().kind() != type.kind() ? new Expr.Cast(a, type) : a);
        }
        return out;
    }

    /**
     * An untyped string literal compared with a non-string value takes the other side's
     * type, read with that type's input format, as in PostgreSQL ({@code b = '\\xcafe'}
     * for a bytea {@code b}); Calcite leaves some such pairs (binary and character) as they are.
     */
    private static List<Expr> resolveUntypedLiteral(List<RexNode> rex, List<Expr> args) {
        for (int i = 0; i < 2; i++) {
            Expr other = args.get(1 - i);
            if (rex.get(i) instanceof RexLiteral lit && lit.getTypeName() == SqlTypeName.CHAR
                    && args.get(i) instanceof Expr.Literal l && l.value() != null
                    && !TypeMapping.isStringKind(other.type().kind())) {
                List<Expr> out = new ArrayList<>(args);
                out.set(i, new Expr.Cast(l, other.type()));
                return out;
            }
        }
        return args;
    }

    /**
     * Whether a string literal cast to {@code target} can become a constant now: not for
     * timestamptz (its meaning depends on the session's time zone) nor for the inputs
     * that depend on the clock ('now', 'today', ...); those stay casts evaluated per statement.
     */
    private static boolean foldable(SqlType target, String text) {
        if (target.kind() == TypeKind.TIMESTAMPTZ || target.kind() == TypeKind.UNKNOWN) return false;
        String t = text.strip().toLowerCase(Locale.ROOT);
        return !(t.equals("now") || t.equals("today") || t.equals("tomorrow") || t.equals("yesterday"));
    }

    private static final Map<Func, String> COMPARISON_SYMBOLS = Map.of(Func.EQ, "=", Func.NE, "<>", Func.LT, "<",
            Func.LE, "<=", Func.GT, ">", Func.GE, ">=", Func.IS_DISTINCT_FROM, "IS DISTINCT FROM",
            Func.IS_NOT_DISTINCT_FROM, "IS NOT DISTINCT FROM");

    /**
     * PostgreSQL has no comparison between a string and a non-string value; Calcite lets
     * one through when {@link PgTypeCoercion} refuses to coerce a typed string.
     */
    private static void checkComparable(Func f, Expr a, Expr b) {
        TypeKind ka = a.type().kind();
        TypeKind kb = b.type().kind();
        if (ka == TypeKind.UNKNOWN || kb == TypeKind.UNKNOWN) return;
        if (ka.isString() != kb.isString()) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + a.type().kind().pgName()
                    + " " + COMPARISON_SYMBOLS.get(f) + " " + b.type().kind().pgName(), null,
                    "No operator matches the given name and argument types. You might need to add explicit type casts.");
        }
    }

    /**
     * The type of a literal. Calcite folds casts of literals into literals, so a literal
     * whose numeric(p,s) is wider than its value is a folded cast and keeps the modifiers.
     * Character literals are text: a ragged CASE makes them varchar(n), which PostgreSQL
     * reports as text, so a folded {@code 'x'::varchar(3)} is reported as text too.
     */
    static SqlType literalType(RexLiteral lit) {
        RelDataType t = lit.getType();
        if (t.getSqlTypeName() == SqlTypeName.DECIMAL && !lit.isNull()) {
            BigDecimal v = lit.getValueAs(BigDecimal.class);
            if (v != null && (t.getPrecision() != v.precision() || t.getScale() != v.scale())) {
                return TypeMapping.fromRel(t, true);
            }
        }
        return TypeMapping.fromRel(t);
    }

    /** Converts a Calcite literal to the Java class {@link TypeKind} prescribes for {@code type}. */
    static Expr.Literal literal(RexLiteral lit, SqlType type) {
        if (lit.isNull()) return new Expr.Literal(null, type);
        SqlTypeName tn = lit.getTypeName();
        Object v;
        switch (type.kind()) {
            case BOOLEAN -> v = lit.getValueAs(Boolean.class);
            case SMALLINT -> v = lit.getValueAs(BigDecimal.class).shortValueExact();
            case INTEGER -> v = lit.getValueAs(BigDecimal.class).intValueExact();
            case BIGINT -> v = lit.getValueAs(BigDecimal.class).longValueExact();
            case REAL -> v = lit.getValueAs(BigDecimal.class).floatValue();
            case DOUBLE -> {
                Object raw = lit.getValue();
                v = raw instanceof Double d ? d : lit.getValueAs(BigDecimal.class).doubleValue();
            }
            case NUMERIC -> v = lit.getValueAs(BigDecimal.class);
            case TEXT, VARCHAR, CHAR, UNKNOWN -> v = tn == SqlTypeName.SYMBOL
                    ? String.valueOf(lit.getValue()).toLowerCase(Locale.ROOT)
                    : lit.getValueAs(String.class);
            case DATE -> v = LocalDate.parse(lit.getValueAs(DateString.class).toString());
            case TIME -> v = LocalTime.parse(lit.getValueAs(TimeString.class).toString());
            case TIMESTAMP -> v = LocalDateTime.parse(lit.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
            case TIMESTAMPTZ -> v = LocalDateTime.parse(lit.getValueAs(TimestampString.class).toString().replace(' ', 'T'))
                    .toInstant(ZoneOffset.UTC);
            case INTERVAL -> v = interval(lit);
            case BYTEA -> v = ByteString.copyOf(lit.getValueAs(byte[].class));
            default -> throw unsupported("literal of type " + type.displayName());
        }
        return new Expr.Literal(v, type);
    }

    private static Interval interval(RexLiteral lit) {
        BigDecimal raw = lit.getValueAs(BigDecimal.class);
        if (lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            return new Interval(raw.intValueExact(), 0, 0);
        }
        long millis = raw.longValue();
        long days = millis / 86_400_000L;
        long rest = millis % 86_400_000L;
        return new Interval(0, Math.toIntExact(days), rest * 1000L);
    }

    static SqlException unsupported(String what) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported");
    }

}
