package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Rewrites a parsed statement into the form the validator understands with PostgreSQL
 * meaning. Not thread-safe; one per statement.
 * <ul>
 *   <li>{@code $n} (parsed by Babel as an identifier) becomes a dynamic parameter with index
 *       n-1; a parameter with a client type hint is wrapped in a CAST to that type, and a
 *       parameter with no context at all (a bare select item) in a CAST to its fallback type.
 *   <li>Select items without an alias get PostgreSQL's default column name ({@code ?column?},
 *       the function name, the column name). Duplicate names within one select list get a
 *       {@code \0n} suffix that {@link #displayName} strips, so the validator sees unique names.
 *   <li>{@code generate_series(...) [AS] g} gets the column name {@code g} (or
 *       {@code generate_series}); {@code (VALUES ...) v} gets columns {@code column1..n}.
 * </ul>
 */
final class PgSqlRewriter extends SqlShuttle {
    private static final Pattern PARAM = Pattern.compile("\\$([0-9]+)");
    static final char UNIQUIFIER = '\0';
    private static final Set<String> REBIND = Set.of("DATE_TRUNC", "DATE_PART", "LENGTH", "STRPOS");

    /** Type spec for a parameter's hint, or null when the client gave none. */
    private final IntFunction<SqlNode> hintSpec;
    /** Type spec for a parameter with no context and no hint (text). */
    private final IntFunction<SqlNode> fallbackSpec;
    final List<SqlDynamicParam> params = new ArrayList<>();
    int maxParamIndex = -1;

    private final String sql;
    /** For the k-th {@code ?} of the text (a rewritten {@code LIMIT/OFFSET $n}), n-1. */
    private final int[] limitParams;

    /**
     * For a statement parsed from {@code PgTokens.rewrite(originalSql)}: text positions
     * of the parsed nodes refer to the rewritten text, which this recomputes.
     */
    PgSqlRewriter(String originalSql, IntFunction<SqlNode> hintSpec, IntFunction<SqlNode> fallbackSpec) {
        this(PgTokens.rewrite(originalSql), hintSpec, fallbackSpec);
    }

    private PgSqlRewriter(PgTokens.Rewritten text, IntFunction<SqlNode> hintSpec, IntFunction<SqlNode> fallbackSpec) {
        this(text.sql(), text.limitParams(), hintSpec, fallbackSpec);
    }

    /** @param sql the rewritten text that was parsed; @param limitParams its {@code PgTokens} parameter map */
    PgSqlRewriter(String sql, int[] limitParams, IntFunction<SqlNode> hintSpec, IntFunction<SqlNode> fallbackSpec) {
        this.sql = sql;
        this.limitParams = limitParams;
        this.hintSpec = hintSpec;
        this.fallbackSpec = fallbackSpec;
    }

    static String displayName(String fieldName) {
        int i = fieldName.indexOf(UNIQUIFIER);
        return i < 0 ? fieldName : fieldName.substring(0, i);
    }

    /**
     * The n of {@code $n}. PostgreSQL numbers at most 65535 parameters; a larger number
     * names no parameter (42P02), however many digits it has.
     */
    static int parameterNumber(String digits) {
        String n = digits.replaceFirst("^0+(?=\\d)", "");
        if (n.length() > 9 || Integer.parseInt(n) > MAX_PARAMETERS) {
            throw new SqlException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $" + n);
        }
        return Integer.parseInt(n);
    }

    /** PostgreSQL's limit on a statement's parameters (the Bind message counts them in 16 bits). */
    static final int MAX_PARAMETERS = 65535;

    static int paramIndex(SqlNode node) {
        if (node instanceof SqlIdentifier id && id.isSimple()) {
            var m = PARAM.matcher(id.getSimple());
            if (m.matches()) return parameterNumber(m.group(1)) - 1;
        }
        return -1;
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        if (id.isSimple() && id.getSimple().equalsIgnoreCase("current_timestamp")) {
            // PostgreSQL's current_timestamp is timestamptz (Calcite's is timestamp): it is now().
            return PgOperatorTable.own("NOW").createCall(id.getParserPosition());
        }
        int index = paramIndex(id);
        if (index < 0) return id;
        return param(index, id.getParserPosition(), false);
    }

    /**
     * A {@code ?} is a {@code LIMIT $n} or {@code OFFSET $n} that {@link PgTokens} rewrote:
     * it gets its parameter's index back and stays a bare parameter (the grammar of
     * LIMIT admits nothing else); its type is the hint or bigint.
     */
    @Override
    public SqlNode visit(SqlDynamicParam p) {
        if (p.getIndex() >= limitParams.length) return p;
        int index = limitParams[p.getIndex()];
        if (index < 0) {
            throw new SqlException(SqlState.UNDEFINED_PARAMETER,
                    "there is no parameter $0");
        }
        var param = new SqlDynamicParam(index, p.getParserPosition());
        params.add(param);
        limitParamIndexes.add(index);
        maxParamIndex = Math.max(maxParamIndex, index);
        return param;
    }

    /** Indexes of the parameters used as LIMIT or OFFSET. */
    final Set<Integer> limitParamIndexes = new HashSet<>();

    /** {@code ::"interval"} (see {@link PgTokens}): a user-defined type name that is PostgreSQL's interval. */
    static boolean isIntervalTypeName(SqlNode type) {
        return type instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec() instanceof SqlUserDefinedTypeNameSpec
                && spec.getTypeName().isSimple() && spec.getTypeName().getSimple().equals("interval");
    }

    private SqlNode param(int index, SqlParserPos pos, boolean needsType) {
        if (index < 0) {
            throw new SqlException(SqlState.UNDEFINED_PARAMETER,
                    "there is no parameter $0");
        }
        var p = new SqlDynamicParam(index, pos);
        params.add(p);
        maxParamIndex = Math.max(maxParamIndex, index);
        SqlNode spec = hintSpec.apply(index);
        if (spec == null && needsType) spec = fallbackSpec.apply(index);
        if (spec == null) return p;
        return SqlStdOperatorTable.CAST.createCall(pos, p, spec);
    }

    /** A bare {@code $n} where nothing gives it a type: cast to its hint or text. */
    private SqlNode typedIfBareParam(SqlNode item) {
        int index = paramIndex(item);
        return index < 0 ? item : param(index, item.getParserPosition(), true);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlBasicCall cast && cast.getOperator() == SqlLibraryOperators.INFIX_CAST) {
            SqlNode fixed = bindCastTightly(cast);
            if (fixed != cast) return fixed.accept(this);
        }
        if (call instanceof SqlBasicCall cast && call.getKind() == SqlKind.CAST) {
            SqlNode catalogCast = PgCatalogFunctions.rewriteCast(cast); // ::regclass, ::oid, ...
            if (catalogCast != null) return catalogCast.accept(this);
        }
        if (call instanceof SqlBasicCall cast && call.getKind() == SqlKind.CAST && cast.operandCount() == 2
                && isIntervalTypeName(cast.operand(1))) {
            cast.setOperand(1, new SqlIntervalQualifier(TimeUnit.DAY,
                    TimeUnit.SECOND, cast.operand(1).getParserPosition()));
        }
        if (call.getKind() == SqlKind.OVER) WindowRewrites.orderUnordered(call);
        if (call instanceof SqlOrderBy ob && DistinctOn.marked(ob.query)) DistinctOn.apply((SqlSelect) ob.query, ob.orderList);
        if (DistinctOn.marked(call)) DistinctOn.apply((SqlSelect) call, ((SqlSelect) call).getOrderList());
        if (call.getKind() == SqlKind.AS) {
            // Only the aliased expression is rewritten; aliases are names, not expressions.
            List<SqlNode> ops = new ArrayList<>(call.getOperandList());
            SqlNode first = ops.get(0);
            ops.set(0, first == null ? null : first.accept(this));
            return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                    ops.toArray(new SqlNode[0]));
        }
        SqlNode array = ArraySyntax.rewrite(call);
        if (array != call) return array.accept(this);
        if (call instanceof SqlSelect select) {
            rewriteSelect(select);
        } else if (call instanceof SqlBasicCall basic && REBIND.contains(call.getOperator().getName().toUpperCase(Locale.ROOT))) {
            // The parser binds some names straight to Calcite's (non-PostgreSQL) definitions.
            var own = PgOperatorTable.own(call.getOperator().getName().toUpperCase(Locale.ROOT));
            if (own != null && own != call.getOperator()) basic.setOperator(own);
        } else if (call.getOperator() == SqlStdOperatorTable.CURRENT_TIMESTAMP && call.operandCount() == 0) {
            // PostgreSQL's current_timestamp is timestamptz (Calcite's is timestamp): it is now().
            return PgOperatorTable.own("NOW").createCall(call.getParserPosition());
        } else if (call.getOperator() == SqlStdOperatorTable.EXTRACT && call.operandCount() == 2
                && call.operand(0) instanceof SqlIntervalQualifier q) {
            // A word Calcite does not know as a unit ("nope") is a time frame name with a
            // placeholder range: pass the word itself so evaluation rejects it (22023).
            String field = q.timeFrameName != null ? q.timeFrameName.toLowerCase(Locale.ROOT)
                    : q.timeUnitRange.startUnit.name().toLowerCase(Locale.ROOT);
            SqlNode source = call.operand(1).accept(this);
            return PgOperatorTable.own("PG_EXTRACT").createCall(call.getParserPosition(),
                    SqlLiteral.createCharString(field, call.getParserPosition()), source);
        } else if (call instanceof SqlBasicCall basic && call.getOperator() == SqlStdOperatorTable.MINUS) {
            basic.setOperator(PgOperatorTable.Arith.MINUS);
        } else if (call instanceof SqlBasicCall basic && call.getOperator() == SqlStdOperatorTable.PLUS) {
            basic.setOperator(PgOperatorTable.Arith.PLUS);
        } else if (call instanceof SqlBasicCall basic && call.operandCount() == 1
                && (call.getOperator() == SqlStdOperatorTable.CEIL || call.getOperator() == SqlStdOperatorTable.FLOOR)) {
            basic.setOperator(call.getKind() == SqlKind.CEIL ? PgNumericFunctions.CEIL : PgNumericFunctions.FLOOR);
        } else if (call.getKind() == SqlKind.VALUES) {
            for (SqlNode row : call.getOperandList()) {
                if (row instanceof SqlBasicCall r) {
                    for (int i = 0; i < r.operandCount(); i++) r.setOperand(i, typedIfBareParam(r.operand(i)));
                }
            }
        }
        return super.visit(call);
    }

    /**
     * Babel applies {@code ::} to the whole operator expression on its left ({@code 1 + 2::int}
     * becomes {@code (1 + 2)::int}); in PostgreSQL {@code ::} binds tighter than any operator.
     * Pushes the cast down to the last operand unless the text shows the left side was
     * parenthesized.
     */
    private SqlNode bindCastTightly(SqlBasicCall cast) {
        if (!(cast.operand(0) instanceof SqlBasicCall op) || !isOperatorCall(op)) return cast;
        int castAt = castOperatorOffset(cast);
        if (castAt < 0) return cast;
        int parenStart = -1;
        int i = castAt - 1;
        while (i >= 0 && Character.isWhitespace(sql.charAt(i))) i--;
        if (i >= 0 && sql.charAt(i) == ')') parenStart = matchingParen(i);
        int opStart = offset(op.getParserPosition().getLineNum(), op.getParserPosition().getColumnNum());
        if (parenStart >= 0 && opStart >= parenStart) return cast; // (a + b)::t
        int last = op.operandCount() - 1;
        SqlBasicCall inner = (SqlBasicCall) SqlLibraryOperators.INFIX_CAST.createCall(cast.getParserPosition(),
                op.operand(last), cast.operand(1));
        op.setOperand(last, bindCastTightly(inner));
        return op;
    }

    private static boolean isOperatorCall(SqlBasicCall c) {
        var op = c.getOperator();
        // A chained cast (x::int::text) is cast upon cast: pushing the outer cast into the inner
        // one would cast its type name.
        if (op.getKind() == SqlKind.CAST) return false;
        return op instanceof SqlBinaryOperator
                || op instanceof SqlPrefixOperator
                || op instanceof SqlBetweenOperator
                || op instanceof SqlLikeOperator;
    }

    /** 0-based offset of the {@code ::} before the cast's type, or -1. */
    private int castOperatorOffset(SqlBasicCall cast) {
        SqlParserPos typePos = cast.operand(1).getParserPosition();
        int i = offset(typePos.getLineNum(), typePos.getColumnNum()) - 1;
        while (i >= 0 && i < sql.length() && Character.isWhitespace(sql.charAt(i))) i--;
        if (i >= 1 && i < sql.length() && sql.charAt(i) == ':' && sql.charAt(i - 1) == ':') return i - 1;
        return -1;
    }

    private int matchingParen(int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            char c = sql.charAt(i);
            if (c == ')') depth++;
            else if (c == '(' && --depth == 0) return i;
        }
        return -1;
    }

    /** 0-based offset of a 1-based line and column. */
    private int offset(int line, int col) {
        if (line <= 0) return -1;
        return CalciteErrors.offset(sql, line, col) - 1;
    }

    private void rewriteSelect(SqlSelect select) {
        SelectListFunctions.moveToFrom(select);
        if (select.getFrom() != null) select.setFrom(fixFromItem(select.getFrom()));
        SqlNodeList items = select.getSelectList();
        if (items == null) return;
        Map<String, Integer> seen = new HashMap<>();
        List<SqlNode> out = new ArrayList<>(items.size());
        for (SqlNode item : items) {
            if (item instanceof SqlBasicCall c && c.getOperator() == SqlLibraryOperators.INFIX_CAST) {
                item = bindCastTightly(c);
            }
            String bareName = paramIndex(item) >= 0 ? "?column?" : null;
            item = typedIfBareParam(item);
            if (item instanceof SqlIdentifier id && id.isStar()) {
                out.add(item);
                continue;
            }
            String name;
            SqlNode expr = item;
            if (item.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) item;
                expr = typedIfBareParam(as.operand(0));
                name = ((SqlIdentifier) as.operand(1)).getSimple();
            } else {
                name = bareName != null ? bareName : columnName(item);
            }
            int n = seen.merge(name, 1, Integer::sum);
            String alias = n == 1 ? name : name + UNIQUIFIER + n;
            if (item.getKind() == SqlKind.AS && n == 1) {
                out.add(SqlStdOperatorTable.AS.createCall(item.getParserPosition(), expr, ((SqlCall) item).operand(1)));
            } else {
                out.add(SqlStdOperatorTable.AS.createCall(item.getParserPosition(), expr,
                        new SqlIdentifier(alias, item.getParserPosition())));
            }
        }
        select.setSelectList(new SqlNodeList(out, items.getParserPosition()));
    }

    private SqlNode fixFromItem(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(fixFromItem(join.getLeft()));
            join.setRight(TableFunctions.implicitlyLateral(fixFromItem(join.getRight())));
            return bindJoinTighterThanComma(join);
        }
        SqlParserPos pos = from.getParserPosition();
        if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            SqlNode inner = as.operand(0);
            if (as.operandCount() != 2) {
                // generate_series(...) AS g(v): lateral too.
                if (!isGenerateSeries(as.operand(0))) return from;
                as.setOperand(0, lateral(as.operand(0)));
                return as;
            }
            SqlIdentifier alias = as.operand(1);
            if (isGenerateSeries(inner)) {
                return SqlStdOperatorTable.AS.createCall(pos, lateral(inner), alias, new SqlIdentifier(alias.getSimple(), pos));
            }
            if (isSingleColumnFunction(inner)) {
                return SqlStdOperatorTable.AS.createCall(pos, inner, alias, new SqlIdentifier(alias.getSimple(), pos));
            }
            SqlNode values = inner;
            if (values.getKind() == SqlKind.VALUES) {
                int n = ((SqlCall) ((SqlCall) values).operand(0)).operandCount();
                List<SqlNode> ops = new ArrayList<>();
                ops.add(inner);
                ops.add(alias);
                for (int i = 1; i <= n; i++) ops.add(new SqlIdentifier("column" + i, pos));
                return SqlStdOperatorTable.AS.createCall(pos, ops);
            }
            return from;
        }
        if (isGenerateSeries(from)) {
            return SqlStdOperatorTable.AS.createCall(pos, lateral(from), new SqlIdentifier("generate_series", pos),
                    new SqlIdentifier("generate_series", pos));
        }
        if (isSingleColumnFunction(from)) {
            return SqlStdOperatorTable.AS.createCall(pos, from, new SqlIdentifier(functionName(from), pos),
                    new SqlIdentifier(TableFunctions.singleColumnName(from), pos));
        }
        return from;
    }

    /**
     * In PostgreSQL an explicit JOIN binds tighter than the comma between FROM items:
     * {@code FROM a, b RIGHT JOIN c ON p} is {@code a CROSS JOIN (b RIGHT JOIN c ON p)},
     * and {@code p} cannot see {@code a}. Calcite's parser reads the whole FROM list left
     * to right ({@code (a, b) RIGHT JOIN c}), so an explicit join whose left side is a comma
     * list takes only the list's last item, and the list takes the join in its place.
     * Comma lists are left-deep, so a list's right item is never itself a comma list;
     * children are fixed first, so chains of explicit joins move as one.
     */
    private static SqlJoin bindJoinTighterThanComma(SqlJoin join) {
        if (join.getJoinType() == JoinType.COMMA || !(join.getLeft() instanceof SqlJoin list)
                || list.getJoinType() != JoinType.COMMA) {
            return join;
        }
        join.setLeft(list.getRight());
        list.setRight(bindJoinTighterThanComma(join));
        return list;
    }

    /**
     * A function in FROM may read the columns of the items before it (PostgreSQL: function
     * calls in FROM are implicitly LATERAL); RelToPlan runs such a call per outer row.
     */
    private static SqlNode lateral(SqlNode call) {
        if (call.getKind() == SqlKind.LATERAL) return call;
        SqlNode table = call.getKind() == SqlKind.COLLECTION_TABLE ? call
                : SqlStdOperatorTable.COLLECTION_TABLE.createCall(call.getParserPosition(), call);
        return SqlStdOperatorTable.LATERAL.createCall(call.getParserPosition(), table);
    }

    static boolean isGenerateSeries(SqlNode node) {
        if (node.getKind() == SqlKind.COLLECTION_TABLE) node = ((SqlCall) node).operand(0);
        return node instanceof SqlCall c && c.getOperator().getName().equalsIgnoreCase("generate_series");
    }

    private static String functionName(SqlNode node) {
        if (node.getKind() == SqlKind.COLLECTION_TABLE) node = ((SqlCall) node).operand(0);
        return ((SqlCall) node).getOperator().getName().toLowerCase(java.util.Locale.ROOT);
    }

    /** A single-column set-returning function in FROM (its column takes the FROM item's alias). */
    static boolean isSingleColumnFunction(SqlNode node) {
        return TableFunctions.singleColumnName(node) != null;
    }

    /** PostgreSQL's FigureColname: the name a select item gets without AS. */
    static String columnName(SqlNode node) {
        switch (node.getKind()) {
            case IDENTIFIER: {
                SqlIdentifier id = (SqlIdentifier) node;
                if (paramIndex(id) >= 0) return "?column?";
                return id.names.get(id.names.size() - 1);
            }
            case CAST: {
                SqlCall c = (SqlCall) node;
                String inner = columnName(c.operand(0));
                if (!inner.equals("?column?")) return inner;
                if (isIntervalTypeName(c.operand(1))
                        || c.operand(1) instanceof SqlIntervalQualifier) return "interval";
                if (c.operand(1) instanceof SqlDataTypeSpec spec) return pgTypeName(spec);
                return "?column?";
            }
            case FILTER: case WITHIN_GROUP: case WITHIN_DISTINCT: case OVER:
                return columnName(((SqlCall) node).operand(0));
            case CASE: return "case";
            case COALESCE: return "coalesce";
            case NULLIF: return "nullif";
            case EXISTS: return "exists";
            case ARRAY_VALUE_CONSTRUCTOR: case ARRAY_QUERY_CONSTRUCTOR: return "array";
            case ROW: return "row";
            case SCALAR_QUERY: return columnName(((SqlCall) node).operand(0));
            case ORDER_BY: return columnName(((SqlCall) node).operand(0)); // (SELECT x ... ORDER BY ... LIMIT n)
            case SELECT: {
                SqlSelect s = (SqlSelect) node;
                if (s.getSelectList() != null && s.getSelectList().size() == 1) {
                    SqlNode item = s.getSelectList().get(0);
                    if (item.getKind() == SqlKind.AS) {
                        return displayName(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple());
                    }
                    return columnName(item);
                }
                return "?column?";
            }
            case LITERAL: {
                SqlLiteral lit = (SqlLiteral) node;
                if (lit.getTypeName() == SqlTypeName.BOOLEAN) return "bool";
                if (lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
                        || lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                    return "interval";
                }
                return "?column?";
            }
            default:
                break;
        }
        if (node instanceof SqlCase) return "case";
        if (node instanceof SqlCall c) {
            var op = c.getOperator();
            if (PgInfixOperators.isOperatorFunction(op.getName())) return "?column?";
            if (op instanceof SqlFunction || op.getKind() == SqlKind.OTHER_FUNCTION) {
                return op.getName().toLowerCase(Locale.ROOT);
            }
            switch (op.getKind()) {
                case EXTRACT: return "extract";
                case POSITION: return "position";
                case TRIM: return "btrim";
                default: break;
            }
        }
        return "?column?";
    }

    private static String pgTypeName(SqlDataTypeSpec spec) {
        String n = (spec.getTypeNameSpec() instanceof SqlCollectionTypeNameSpec c
                ? c.getElementTypeName().getTypeName() : spec.getTypeName()).getSimple().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "integer", "int", "int4" -> "int4";
            case "bigint", "int8" -> "int8";
            case "smallint", "int2" -> "int2";
            case "double", "float8", "float" -> "float8";
            case "real", "float4" -> "float4";
            case "decimal", "numeric" -> "numeric";
            case "boolean", "bool" -> "bool";
            case "varchar", "character varying" -> "varchar";
            case "char", "character", "bpchar" -> "bpchar";
            case "timestamp" -> "timestamp";
            case "timestamptz" -> "timestamptz";
            case "text", "string" -> "text";
            case "varbinary", "bytea" -> "bytea";
            case "variant" -> "jsonb";
            default -> n;
        };
    }
}
