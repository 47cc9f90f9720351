package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlOperandTypeInference;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.ListSqlOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * The operators the validator knows: our PostgreSQL definitions first, then Calcite's
 * PostgreSQL library, then the SQL standard ones. Function names are matched
 * case-insensitively (identifiers are folded to lower case, Calcite's tables are upper case).
 * Immutable and shared.
 */
final class PgOperatorTable {
    private PgOperatorTable() {}

    private static final Set<String> OWN_NAMES = new HashSet<>();
    private static final Set<SqlOperator> OWN_NAMES_OPS =
            Collections.newSetFromMap(new IdentityHashMap<>());

    private static final List<SqlOperator> OWN = ownFunctions();

    static SqlOperatorTable create() {
        ListSqlOperatorTable own = new ListSqlOperatorTable();
        for (SqlOperator op : OWN) own.add(op);
        SqlOperatorTable chained = SqlOperatorTables.chain(own,
                SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL));
        return new CaseInsensitive(chained);
    }

    private record CaseInsensitive(SqlOperatorTable delegate) implements SqlOperatorTable {
        private static final SqlNameMatcher INSENSITIVE = SqlNameMatchers.withCaseSensitive(false);

        @Override
        public void lookupOperatorOverloads(SqlIdentifier opName, SqlFunctionCategory category, SqlSyntax syntax,
                                            List<SqlOperator> operatorList, SqlNameMatcher nameMatcher) {
            List<SqlOperator> found = new ArrayList<>();
            delegate.lookupOperatorOverloads(opName, category, syntax, found, INSENSITIVE);
            // Our own definitions shadow library ones of the same name.
            if (found.stream().anyMatch(OWN_NAMES_OPS::contains)) found.removeIf(op -> !OWN_NAMES_OPS.contains(op));
            operatorList.addAll(found);
        }

        @Override
        public List<SqlOperator> getOperatorList() { return delegate.getOperatorList(); }
    }


    private static List<SqlOperator> concat(List<SqlOperator> a, List<SqlOperator> b) {
        List<SqlOperator> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Our definition of a function by upper-case name, or null. */
    static SqlOperator own(String upperName) {
        for (SqlOperator op : OWN_NAMES_OPS) if (op.getName().equals(upperName)) return op;
        return null;
    }

    private static SqlReturnTypeInference nullable(SqlTypeName t) {
        return ReturnTypes.explicit(t).andThen(SqlTypeTransforms.TO_NULLABLE);
    }

    /** Parameters of unknown type take the declared types of the positions they fill. */
    private static SqlOperandTypeInference declared(SqlTypeName... types) {
        return (SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) -> {
            RelDataTypeFactory f = binding.getTypeFactory();
            for (int i = 0; i < operandTypes.length; i++) {
                SqlTypeName t = types.length == 0 ? SqlTypeName.VARCHAR : types[Math.min(i, types.length - 1)];
                operandTypes[i] = f.createTypeWithNullability(f.createSqlType(t), true);
            }
        };
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference ret, SqlOperandTypeInference infer,
                                  SqlOperandTypeChecker check) {
        SqlFunction f = new SqlFunction(name, SqlKind.OTHER_FUNCTION, ret, infer, check,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
        OWN_NAMES.add(name);
        OWN_NAMES_OPS.add(f);
        return f;
    }

    private static List<SqlOperator> ownFunctions() {
        List<SqlOperator> ops = new ArrayList<>();
        for (SqlOperator op : List.of(Arith.MINUS, Arith.PLUS)) {
            ops.add(op);
            OWN_NAMES_OPS.add(op);
        }
        for (SqlOperator op : concat(ArrayOperators.functions(), JsonbOperators.functions())) {
            ops.add(op);
            OWN_NAMES.add(op.getName());
            OWN_NAMES_OPS.add(op);
        }
        for (SqlOperator op : PgNumericFunctions.operators()) { // sqrt, round, *, /, ...: PostgreSQL's result types
            ops.add(op);
            OWN_NAMES.add(op.getName());
            OWN_NAMES_OPS.add(op);
        }
        ops.add(new GenerateSeries());
        for (SqlOperator op : TableFunctions.operators()) { // jsonb_each, ...: set-returning functions
            ops.add(op);
            OWN_NAMES.add(op.getName());
            OWN_NAMES_OPS.add(op);
        }
        OWN_NAMES.add("GENERATE_SERIES");
        OWN_NAMES_OPS.add(ops.get(0));
        ops.add(fn("DATE_TRUNC", ReturnTypes.ARG1_NULLABLE, declared(SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP),
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME),
                        OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME_INTERVAL))));
        ops.add(fn("NOW", ReturnTypes.explicit(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE), declared(), OperandTypes.NILADIC));
        ops.add(fn("PG_TYPEOF", ReturnTypes.explicit(SqlTypeName.VARCHAR), declared(), OperandTypes.ANY));
        ops.add(fn("BTRIM", nullable(SqlTypeName.VARCHAR), declared(),
                OperandTypes.or(OperandTypes.STRING, OperandTypes.STRING_STRING)));
        // PostgreSQL's ltrim/rtrim take optional characters to strip (Calcite's take only the string).
        ops.add(fn("LTRIM", nullable(SqlTypeName.VARCHAR), declared(),
                OperandTypes.or(OperandTypes.STRING, OperandTypes.STRING_STRING)));
        ops.add(fn("RTRIM", nullable(SqlTypeName.VARCHAR), declared(),
                OperandTypes.or(OperandTypes.STRING, OperandTypes.STRING_STRING)));
        ops.add(fn("OCTET_LENGTH", nullable(SqlTypeName.INTEGER), declared(),
                OperandTypes.or(OperandTypes.STRING, OperandTypes.BINARY)));
        ops.add(fn("REVERSE", nullable(SqlTypeName.VARCHAR), declared(), OperandTypes.STRING));
        ops.add(fn("TO_HEX", nullable(SqlTypeName.VARCHAR), declared(SqlTypeName.BIGINT), OperandTypes.INTEGER));
        ops.add(fn("QUOTE_IDENT", nullable(SqlTypeName.VARCHAR), declared(), OperandTypes.STRING));
        ops.add(fn("QUOTE_LITERAL", nullable(SqlTypeName.VARCHAR), declared(), OperandTypes.ANY));
        ops.add(fn("VERSION", ReturnTypes.explicit(SqlTypeName.VARCHAR), declared(), OperandTypes.NILADIC));
        ops.add(fn("CURRENT_DATABASE", ReturnTypes.explicit(SqlTypeName.VARCHAR), declared(), OperandTypes.NILADIC));
        ops.add(fn("PI", ReturnTypes.explicit(SqlTypeName.DOUBLE), declared(), OperandTypes.NILADIC));
        ops.add(fn("INITCAP", nullable(SqlTypeName.VARCHAR), declared(), OperandTypes.STRING));
        ops.add(fn("ENCODE", nullable(SqlTypeName.VARCHAR), declared(SqlTypeName.VARBINARY, SqlTypeName.VARCHAR),
                OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.CHARACTER)));
        ops.add(fn("DECODE", nullable(SqlTypeName.VARBINARY), declared(),
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
        ops.add(fn("GET_BYTE", nullable(SqlTypeName.INTEGER), declared(SqlTypeName.VARBINARY, SqlTypeName.INTEGER),
                OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.INTEGER)));
        ops.add(fn("MAKE_DATE", nullable(SqlTypeName.DATE), declared(SqlTypeName.INTEGER),
                OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)));
        ops.add(fn("MAKE_TIMESTAMP", nullable(SqlTypeName.TIMESTAMP),
                declared(SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER,
                        SqlTypeName.INTEGER, SqlTypeName.DOUBLE),
                OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER,
                        SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.NUMERIC)));
        for (String j : List.of("JUSTIFY_DAYS", "JUSTIFY_HOURS", "JUSTIFY_INTERVAL")) {
            ops.add(fn(j, ReturnTypes.ARG0_NULLABLE, declared(), OperandTypes.family(SqlTypeFamily.DATETIME_INTERVAL)));
        }
        ops.add(fn("STRPOS", nullable(SqlTypeName.INTEGER), declared(), OperandTypes.STRING_STRING));
        ops.add(fn("LENGTH", nullable(SqlTypeName.INTEGER), declared(), OperandTypes.STRING));
        ops.add(fn("SPLIT_PART", nullable(SqlTypeName.VARCHAR), declared(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                SqlTypeName.INTEGER), OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER,
                SqlTypeFamily.INTEGER)));
        // extract(field FROM x) is rewritten to this: PostgreSQL's extract is numeric (Calcite's bigint).
        ops.add(fn("PG_EXTRACT", ReturnTypes.explicit(f -> PgTypeSystem.unconstrainedNumeric(f))
                        .andThen(SqlTypeTransforms.TO_NULLABLE), declared(SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP),
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME),
                        OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME_INTERVAL))));
        ops.add(fn("DATE_PART", nullable(SqlTypeName.DOUBLE), declared(SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP),
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME),
                        OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME_INTERVAL))));
        // PostgreSQL's catalog functions and OID alias casts.
        for (SqlOperator op : PgCatalogFunctions.operators()) {
            ops.add(op);
            OWN_NAMES.add(op.getName());
            OWN_NAMES_OPS.add(op);
        }
        return ops;
    }

    private static boolean isDatetime(RelDataType t) {
        return t.getSqlTypeName().getFamily() == SqlTypeFamily.DATE
                || t.getSqlTypeName().getFamily() == SqlTypeFamily.TIMESTAMP
                || t.getSqlTypeName().getFamily() == SqlTypeFamily.TIME;
    }

    private static RelDataType minusType(SqlOperatorBinding b) {
        RelDataType l = b.getOperandType(0);
        RelDataType r = b.getOperandType(1);
        RelDataTypeFactory f = b.getTypeFactory();
        boolean nullable = l.isNullable() || r.isNullable();
        if (isDatetime(l) && isDatetime(r)) {
            RelDataType t = l.getSqlTypeName() == SqlTypeName.DATE && r.getSqlTypeName() == SqlTypeName.DATE
                    ? f.createSqlType(SqlTypeName.INTEGER)
                    : f.createSqlIntervalType(new SqlIntervalQualifier(
                            TimeUnit.DAY, TimeUnit.SECOND,
                            SqlParserPos.ZERO));
            return f.createTypeWithNullability(t, nullable);
        }
        if (l.getSqlTypeName() == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(r.getSqlTypeName())) {
            return f.createTypeWithNullability(l, nullable);
        }
        if (ArraySyntax.isJsonb(l)) return f.createTypeWithNullability(l, true); // jsonb - key
        return PgNumericFunctions.promoteReal(b, ReturnTypes.NULLABLE_SUM.inferReturnType(b));
    }

    private static RelDataType plusType(SqlOperatorBinding b) {
        RelDataType l = b.getOperandType(0);
        RelDataType r = b.getOperandType(1);
        boolean nullable = l.isNullable() || r.isNullable();
        if (l.getSqlTypeName() == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(r.getSqlTypeName())) {
            return b.getTypeFactory().createTypeWithNullability(l, nullable);
        }
        if (r.getSqlTypeName() == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(l.getSqlTypeName())) {
            return b.getTypeFactory().createTypeWithNullability(r, nullable);
        }
        return PgNumericFunctions.promoteReal(b, ReturnTypes.NULLABLE_SUM.inferReturnType(b));
    }

    /** Arithmetic operators with PostgreSQL's date/time forms (a holder, so they exist before the table). */
    static final class Arith {
        private Arith() {}

    /**
         * PostgreSQL's {@code -}: Calcite's, plus {@code timestamp - timestamp} (interval) and
         * {@code date - date} (integer days) and {@code date - integer} (date). The parser
         * binds {@code -} to Calcite's operator; {@link PgSqlRewriter} swaps in this one.
         */
        static final SqlOperator MINUS = new SqlMonotonicBinaryOperator("-", SqlKind.MINUS, 40,
                true, PgOperatorTable::minusType, InferTypes.FIRST_KNOWN,
                OperandTypes.or(OperandTypes.MINUS_OPERATOR,
                        OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME),
                        OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                        OperandTypes.family(SqlTypeFamily.VARIANT, SqlTypeFamily.ANY)));

        /** PostgreSQL's {@code +}: Calcite's, plus {@code date + integer} (date). */
        static final SqlOperator PLUS = new SqlMonotonicBinaryOperator("+", SqlKind.PLUS, 40,
                true, PgOperatorTable::plusType, InferTypes.FIRST_KNOWN,
                OperandTypes.or(OperandTypes.PLUS_OPERATOR,
                        OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                        OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.DATE)));
    }

    /**
     * {@code generate_series(start, stop [, step])} in FROM: one column of the arguments'
     * type (integer, bigint, numeric; timestamp with an interval step).
     */
    static final class GenerateSeries extends SqlFunction implements SqlTableFunction {
        GenerateSeries() {
            super("GENERATE_SERIES", SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, InferFirstKnown.INSTANCE,
                    OperandTypes.or(
                            OperandTypes.family(SqlTypeFamily.EXACT_NUMERIC, SqlTypeFamily.EXACT_NUMERIC),
                            OperandTypes.family(SqlTypeFamily.EXACT_NUMERIC, SqlTypeFamily.EXACT_NUMERIC,
                                    SqlTypeFamily.EXACT_NUMERIC),
                            OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP,
                                    SqlTypeFamily.DATETIME_INTERVAL)),
                    SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
        }

        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return (SqlOperatorBinding b) -> {
                RelDataTypeFactory f = b.getTypeFactory();
                RelDataType t = b.getOperandType(0);
                if (t.getSqlTypeName() != SqlTypeName.TIMESTAMP) {
                    RelDataType lr = f.leastRestrictive(List.of(b.getOperandType(0), b.getOperandType(1)));
                    if (lr != null) t = lr;
                    if (b.getOperandCount() > 2) {
                        RelDataType l3 = f.leastRestrictive(List.of(t, b.getOperandType(2)));
                        if (l3 != null) t = l3;
                    }
                    if (t.getSqlTypeName() == SqlTypeName.DECIMAL) t = PgTypeSystem.unconstrainedNumeric(f);
                }
                return f.builder().add("generate_series", f.createTypeWithNullability(t, false)).build();
            };
        }
    }

    /** Unknown-typed arguments (parameters) take the type of the first known argument, else integer. */
    enum InferFirstKnown implements SqlOperandTypeInference {
        INSTANCE;

        @Override
        public void inferOperandTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
            RelDataType known = null;
            for (var op : binding.operands()) {
                RelDataType t = binding.getValidator().deriveType(binding.getScope(), op);
                if (t.getSqlTypeName() != SqlTypeName.NULL && t.getSqlTypeName() != SqlTypeName.UNKNOWN) {
                    known = t;
                    break;
                }
            }
            if (known == null) known = binding.getTypeFactory().createSqlType(SqlTypeName.INTEGER);
            Arrays.fill(operandTypes, known);
        }
    }
}
