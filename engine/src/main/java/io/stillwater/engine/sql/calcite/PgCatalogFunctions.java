package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.PgCatalog;
import io.stillwater.engine.catalog.PgRelationModel;
import io.stillwater.engine.catalog.PgRelationModel.Relation;
import io.stillwater.engine.catalog.PgTypeNames;
import io.stillwater.engine.catalog.RoleDef;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * PostgreSQL's catalog functions ({@code pg_get_indexdef}, {@code format_type}, {@code
 * pg_table_is_visible}, ...) and the OID alias casts ({@code ::regclass}, {@code ::regtype},
 * {@code ::regnamespace}, {@code ::regproc}, {@code ::regrole}) that psql and drivers use.
 *
 * <p>Decision: these functions read the catalog, which expressions cannot (an evaluator
 * sees one row). Each call is instead translated, when the statement is planned, into an
 * expression over a table of the answers computed from the statement's catalog snapshot
 * ({@link PgRelationModel}): {@code CASE WHEN arg = 16392 THEN 'CREATE INDEX ...' ... END}.
 * The answers are those of the snapshot the statement's catalog relations are read in, so
 * the two agree; a maintained view cannot use these functions anyway (it cannot read
 * built-in relations). The OID aliases are not types here: {@code x::regclass} is a call
 * of {@code $regclass}, which maps a name to its OID (an integer) and an OID to its name
 * (text), so both {@code 't'::regclass} and {@code c.oid::regclass::text} mean what they
 * mean in PostgreSQL.
 */
final class PgCatalogFunctions {
    private final CatalogView catalog;
    private final SecurityCatalog security;
    private final PrivilegeFunctions privileges;
    private PgRelationModel model;

    /** @param security the role catalog: owners' names and privileges come from it */
    PgCatalogFunctions(CatalogView catalog, SecurityCatalog security) {
        this.catalog = catalog;
        this.security = security;
        this.privileges = new PrivilegeFunctions(security, this::model);
    }

    private PgRelationModel model() {
        if (model == null) model = PgRelationModel.of(catalog);
        return model;
    }

    private static final Set<String> BOOLEAN_TRUE = Set.of("PG_TABLE_IS_VISIBLE", "PG_TYPE_IS_VISIBLE",
            "PG_FUNCTION_IS_VISIBLE", "PG_COLLATION_IS_VISIBLE", "PG_OPCLASS_IS_VISIBLE", "PG_OPERATOR_IS_VISIBLE",
            "PG_CONVERSION_IS_VISIBLE", "PG_STATISTICS_OBJ_IS_VISIBLE", "HAS_TABLE_PRIVILEGE", "HAS_SCHEMA_PRIVILEGE",
            "HAS_DATABASE_PRIVILEGE", "HAS_COLUMN_PRIVILEGE", "HAS_ANY_COLUMN_PRIVILEGE", "HAS_FUNCTION_PRIVILEGE",
            "HAS_SEQUENCE_PRIVILEGE", "HAS_TYPE_PRIVILEGE", "PG_HAS_ROLE");
    private static final Set<String> BOOLEAN_FALSE = Set.of("PG_RELATION_IS_PUBLISHABLE", "PG_IS_IN_RECOVERY",
            "PG_IS_OTHER_TEMP_SCHEMA");
    /** Definitions of objects Stillwater does not have: NULL, as PostgreSQL answers for an unknown OID. */
    private static final Set<String> TEXT_NULL = Set.of("OBJ_DESCRIPTION", "COL_DESCRIPTION", "SHOBJ_DESCRIPTION",
            "PG_GET_STATISTICSOBJDEF_COLUMNS", "PG_GET_FUNCTION_RESULT", "PG_GET_FUNCTION_ARGUMENTS",
            "PG_GET_FUNCTION_IDENTITY_ARGUMENTS", "PG_GET_TRIGGERDEF", "PG_GET_RULEDEF", "PG_GET_PARTKEYDEF",
            "PG_GET_SERIAL_SEQUENCE", "PG_GET_FUNCTIONDEF", "PG_GET_STATISTICSOBJDEF");
    private static final Set<String> TEXT = Set.of("PG_GET_USERBYID", "PG_ENCODING_TO_CHAR", "PG_GET_INDEXDEF",
            "PG_GET_CONSTRAINTDEF", "PG_GET_VIEWDEF", "PG_GET_EXPR", "FORMAT_TYPE", "PG_SIZE_PRETTY");
    private static final Set<String> BIGINT_ZERO = Set.of("PG_RELATION_SIZE", "PG_TOTAL_RELATION_SIZE",
            "PG_TABLE_SIZE", "PG_INDEXES_SIZE", "PG_DATABASE_SIZE");
    /** The OID alias casts, as functions: {@code x::regclass} is {@code "$regclass"(x)}. */
    private static final Set<String> ALIASES = Set.of("regclass", "regtype", "regnamespace", "regproc", "regrole",
            "regprocedure", "regoper", "regconfig");

    /** Whether {@code upperName} is one of these functions. */
    static boolean handles(String upperName) {
        return BOOLEAN_TRUE.contains(upperName) || BOOLEAN_FALSE.contains(upperName) || TEXT_NULL.contains(upperName)
                || TEXT.contains(upperName) || BIGINT_ZERO.contains(upperName) || upperName.equals("PG_CHAR_TO_ENCODING")
                || upperName.equals("CURRENT_CATALOG")
                || (upperName.startsWith("$") && ALIASES.contains(upperName.substring(1).toLowerCase(Locale.ROOT)));
    }

    /** The validator's definitions of these functions, for {@link PgOperatorTable}. */
    static List<SqlOperator> operators() {
        List<SqlOperator> ops = new ArrayList<>();
        for (String n : BOOLEAN_TRUE) ops.add(fn(n, ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE)));
        for (String n : BOOLEAN_FALSE) ops.add(fn(n, ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.TO_NULLABLE)));
        for (String n : TEXT_NULL) ops.add(fn(n, ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE)));
        for (String n : TEXT) ops.add(fn(n, ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE)));
        for (String n : BIGINT_ZERO) ops.add(fn(n, ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.TO_NULLABLE)));
        ops.add(fn("PG_CHAR_TO_ENCODING", ReturnTypes.explicit(SqlTypeName.INTEGER).andThen(SqlTypeTransforms.TO_NULLABLE)));
        ops.addAll(ALIAS_OPS.values());
        return ops;
    }

    private static final Map<String, SqlFunction> ALIAS_OPS = aliasOperators();

    private static Map<String, SqlFunction> aliasOperators() {
        Map<String, SqlFunction> out = new LinkedHashMap<>();
        for (String a : ALIASES) out.put(a, fn("$" + a.toUpperCase(Locale.ROOT), PgCatalogFunctions::aliasType));
        return out;
    }

    /** A name's OID (integer) from text, an OID's name (text) from a number. */
    private static RelDataType aliasType(SqlOperatorBinding b) {
        RelDataType arg = b.getOperandType(0);
        boolean fromText = SqlTypeFamily.CHARACTER.contains(arg);
        var f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(fromText ? SqlTypeName.INTEGER : SqlTypeName.VARCHAR), true);
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference ret) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ret, PgCatalogFunctions::inferUnknownAsText,
                OperandTypes.VARIADIC, SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }

    /** Arguments of unknown type (NULL, parameters) are taken as text, as PostgreSQL does with unknown literals. */
    private static void inferUnknownAsText(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
        var f = binding.getTypeFactory();
        for (int i = 0; i < operandTypes.length; i++) {
            RelDataType t = binding.getValidator().deriveType(binding.getScope(), binding.operand(i));
            operandTypes[i] = t.getSqlTypeName() == SqlTypeName.NULL || t.getSqlTypeName() == SqlTypeName.UNKNOWN
                    ? f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true) : t;
        }
    }

    /**
     * {@code CAST(x AS regclass)} (and the other aliases) as a call of {@code $regclass};
     * {@code CAST(x AS oid)} as a cast to integer and {@code name}/{@code "char"} as text;
     * null when {@code cast}'s type is none of these.
     */
    static SqlNode rewriteCast(SqlBasicCall cast) {
        if (cast.operandCount() == 2 && isTextType(cast.operand(1)) && cast.operand(0) instanceof SqlBasicCall inner
                && inner.getKind() == SqlKind.CAST && inner.operand(0) instanceof SqlCharStringLiteral
                && aliasOf(inner) != null) {
            // 't'::regclass::text is the relation's name as the catalog spells it: name -> OID -> name.
            SqlFunction alias = ALIAS_OPS.get(aliasOf(inner));
            return alias.createCall(cast.getParserPosition(), alias.createCall(inner.getParserPosition(), (SqlNode) inner.operand(0)));
        }
        if (cast.operandCount() != 2 || !(cast.operand(1) instanceof SqlDataTypeSpec spec)
                || !(spec.getTypeNameSpec() instanceof SqlUserDefinedTypeNameSpec)
                || !spec.getTypeName().isSimple()) {
            return null;
        }
        String type = spec.getTypeName().getSimple();
        SqlParserPos pos = cast.getParserPosition();
        if (ALIASES.contains(type)) {
            return ALIAS_OPS.get(type).createCall(pos, (SqlNode) cast.operand(0));
        }
        SqlTypeName target = switch (type) {
            case "oid", "xid", "cid" -> SqlTypeName.INTEGER;
            case "name", "char", "int2vector", "oidvector", "pg_node_tree", "aclitem" -> SqlTypeName.VARCHAR;
            default -> null;
        };
        if (target == null) return null;
        var basic = new org.apache.calcite.sql.SqlBasicTypeNameSpec(target, pos);
        return SqlStdOperatorTable.CAST.createCall(pos, (SqlNode) cast.operand(0), new SqlDataTypeSpec(basic, pos));
    }

    /** The OID alias a cast is to ({@code regclass}, ...), or null. */
    private static String aliasOf(SqlBasicCall cast) {
        if (cast.operandCount() == 2 && cast.operand(1) instanceof SqlDataTypeSpec spec
                && spec.getTypeNameSpec() instanceof SqlUserDefinedTypeNameSpec && spec.getTypeName().isSimple()
                && ALIASES.contains(spec.getTypeName().getSimple())) {
            return spec.getTypeName().getSimple();
        }
        return null;
    }

    private static boolean isTextType(SqlNode type) {
        if (!(type instanceof SqlDataTypeSpec spec)) return false;
        if (spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlBasicTypeNameSpec) {
            String n = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
            return n.equals("VARCHAR") || n.equals("CHAR");
        }
        return spec.getTypeName().isSimple() && Set.of("text", "name").contains(spec.getTypeName().getSimple());
    }

    /** The expression for a call of one of these functions with translated {@code args}. */
    Expr translate(String upperName, List<Expr> args, SqlType type) {
        if (upperName.equals("PG_TABLE_IS_VISIBLE") && !args.isEmpty()) return tableIsVisible(args.get(0));
        if (PrivilegeFunctions.NAMES.contains(upperName)) return privileges.translate(upperName, args);
        if (BOOLEAN_TRUE.contains(upperName)) return nullIfFirstNull(args, new Expr.Literal(true, SqlType.BOOLEAN));
        if (BOOLEAN_FALSE.contains(upperName)) return nullIfFirstNull(args, new Expr.Literal(false, SqlType.BOOLEAN));
        if (TEXT_NULL.contains(upperName)) return new Expr.Literal(null, SqlType.TEXT);
        if (BIGINT_ZERO.contains(upperName)) return nullIfFirstNull(args, new Expr.Literal(0L, SqlType.BIGINT));
        // current_catalog (SQL standard, Calcite's operator): the database, as in PostgreSQL.
        if (upperName.equals("CURRENT_CATALOG")) return new Expr.Call(Func.CURRENT_DATABASE, List.of(), SqlType.TEXT);
        Expr arg = args.isEmpty() ? new Expr.Literal(null, SqlType.TEXT) : args.get(0);
        return switch (upperName) {
            case "PG_CHAR_TO_ENCODING" -> lookupText(arg, Map.of("UTF8", 6), new Expr.Literal(-1, SqlType.INTEGER));
            case "PG_GET_USERBYID" -> lookup(arg, roleNames(), concat("unknown (OID=", arg, ")"));
            case "PG_ENCODING_TO_CHAR" -> lookup(arg, Map.of(6, "UTF8"), new Expr.Literal("", SqlType.TEXT));
            case "PG_GET_EXPR" -> arg.type().kind().isString() ? arg : new Expr.Cast(arg, SqlType.TEXT);
            case "PG_GET_VIEWDEF" -> viewDef(arg);
            case "PG_GET_INDEXDEF" -> indexDef(args);
            case "PG_GET_CONSTRAINTDEF" -> constraintDef(arg);
            case "FORMAT_TYPE" -> formatType(arg, args.size() > 1 ? args.get(1) : new Expr.Literal(null, SqlType.INTEGER));
            case "PG_SIZE_PRETTY" -> sizePretty(arg.type().kind() == TypeKind.BIGINT ? arg : new Expr.Cast(arg, SqlType.BIGINT));
            case "$REGCLASS" -> regclass(arg);
            case "$REGTYPE" -> regtype(arg);
            case "$REGNAMESPACE" -> regnamespace(arg);
            case "$REGROLE" -> arg.type().kind().isString()
                    ? lookupText(arg, roleOids(), null)
                    : lookup(arg, roleNames(), new Expr.Cast(arg, SqlType.TEXT));
            // regproc and the others: functions are named, not numbered, in Stillwater's catalog.
            default -> arg.type().kind().isString() ? stripPgCatalog(arg) : new Expr.Cast(arg, SqlType.TEXT);
        };
    }

    /** Every role's name by oid (pg_roles' rows), for pg_get_userbyid and ::regrole. */
    private Map<Integer, String> roleNames() {
        Map<Integer, String> names = new LinkedHashMap<>();
        for (RoleDef r : security.allRoles()) names.put((int) r.oid(), r.name());
        names.put(PgCatalog.DATABASE_OWNER_OID, "pg_database_owner");
        return names;
    }

    private Map<String, Integer> roleOids() {
        Map<String, Integer> oids = new LinkedHashMap<>();
        roleNames().forEach((oid, name) -> oids.put(name, oid));
        return oids;
    }

    /**
     * {@code pg_table_is_visible(oid)}: whether the search path (pg_catalog, public) finds the
     * relation by its bare name, so false for information_schema's.
     */
    private Expr tableIsVisible(Expr oid) {
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        conds.add(new Expr.Call(Func.IS_NULL, List.of(oid), SqlType.BOOLEAN));
        results.add(new Expr.Literal(null, SqlType.BOOLEAN));
        for (Relation r : model().relations()) {
            if (!r.schema().equals(PgCatalog.INFORMATION_SCHEMA)) continue;
            conds.add(eq(oid, r.oid()));
            results.add(new Expr.Literal(false, SqlType.BOOLEAN));
        }
        return new Expr.Case(conds, results, new Expr.Literal(true, SqlType.BOOLEAN), SqlType.BOOLEAN);
    }

    private Expr regclass(Expr arg) {
        if (arg.type().kind().isString()) {
            if (arg instanceof Expr.Literal l && l.value() != null) {
                Relation r = model().byName((String) l.value()).orElseThrow(() -> new SqlException(
                        SqlState.UNDEFINED_TABLE, "relation \"" + l.value() + "\" does not exist"));
                return new Expr.Literal(r.oid(), SqlType.INTEGER);
            }
            Map<String, Integer> oids = new LinkedHashMap<>();
            for (Relation r : model().relations()) {
                oids.putIfAbsent(r.schema() + "." + r.name(), r.oid());
                if (!r.schema().equals(PgCatalog.INFORMATION_SCHEMA)) oids.putIfAbsent(r.name(), r.oid());
            }
            return lookupText(arg, oids, null);
        }
        Map<Integer, String> names = new LinkedHashMap<>();
        for (Relation r : model().relations()) {
            // PostgreSQL qualifies a name its search path (pg_catalog, public) does not find.
            boolean visible = !r.schema().equals(PgCatalog.INFORMATION_SCHEMA);
            names.put(r.oid(), visible ? PgRelationModel.quoteIdent(r.name())
                    : r.schema() + "." + PgRelationModel.quoteIdent(r.name()));
        }
        return lookup(arg, names, new Expr.Cast(arg, SqlType.TEXT));
    }

    private Expr regtype(Expr arg) {
        if (arg.type().kind().isString()) {
            if (arg instanceof Expr.Literal l && l.value() != null) {
                Integer oid = PgTypeNames.oidOf(((String) l.value()).strip());
                if (oid == null) {
                    throw new SqlException(SqlState.UNDEFINED_OBJECT, "type \"" + l.value() + "\" does not exist");
                }
                return new Expr.Literal(oid, SqlType.INTEGER);
            }
            return lookupText(arg, PgTypeNames.oidsByName(), null);
        }
        return lookup(arg, PgTypeNames.formatted(), new Expr.Cast(arg, SqlType.TEXT));
    }

    private static Expr regnamespace(Expr arg) {
        Map<Integer, String> names = Map.of(PgCatalog.PG_CATALOG_OID, "pg_catalog", PgCatalog.PG_TOAST_OID, "pg_toast",
                PgCatalog.PUBLIC_OID, "public", PgCatalog.INFORMATION_SCHEMA_OID, "information_schema");
        if (arg.type().kind().isString()) {
            Map<String, Integer> oids = new LinkedHashMap<>();
            names.forEach((oid, name) -> oids.put(name, oid));
            return lookupText(arg, oids, null);
        }
        return lookup(arg, names, new Expr.Cast(arg, SqlType.TEXT));
    }

    private Expr viewDef(Expr arg) {
        Map<Object, String> defs = new LinkedHashMap<>();
        for (Relation r : model().relations()) {
            if (r.definition() == null) continue;
            defs.put(arg.type().kind().isString() ? r.name() : r.oid(), r.definition());
        }
        return lookupAny(arg, defs, null);
    }

    private Expr indexDef(List<Expr> args) {
        Expr oid = args.get(0);
        Map<Object, String> whole = new LinkedHashMap<>();
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        Expr column = args.size() > 1 ? args.get(1) : new Expr.Literal(0, SqlType.INTEGER);
        // psql passes pretty = true (a constant); a computed flag is taken as false.
        boolean pretty = args.size() > 2 && args.get(2) instanceof Expr.Literal l && Boolean.TRUE.equals(l.value());
        for (Relation r : model().relations()) {
            if (!r.isIndex()) continue;
            whole.put(r.oid(), model().indexDef(r, pretty));
            for (int k = 1; k <= r.keySql().size(); k++) {
                conds.add(and(eq(oid, r.oid()), eq(column, k)));
                results.add(new Expr.Literal(PgRelationModel.indexColumn(r, k), SqlType.TEXT));
            }
        }
        // pg_get_indexdef(oid, 0, ...) and pg_get_indexdef(oid): the whole definition.
        Expr otherwise = lookupAny(oid, whole, null);
        if (conds.isEmpty()) return otherwise;
        return new Expr.Case(conds, results, otherwise, SqlType.TEXT);
    }

    private Expr constraintDef(Expr arg) {
        Map<Object, String> defs = new LinkedHashMap<>();
        for (Relation r : model().relations()) {
            if (!r.primaryKey()) continue;
            List<String> cols = r.attributes().stream().map(a -> PgRelationModel.quoteIdent(a.name())).toList();
            defs.put(PgCatalog.oid(r.catalogId(), PgCatalog.Slot.PRIMARY_KEY_CONSTRAINT),
                    "PRIMARY KEY (" + String.join(", ", cols) + ")");
        }
        return lookupAny(arg, defs, null);
    }

    /** {@code format_type(oid, typmod)}: user columns' (type, typmod) pairs first, then the type alone. */
    private Expr formatType(Expr oid, Expr typmod) {
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (Relation r : model().relations()) {
            for (var a : r.attributes()) {
                SqlType t = a.type();
                if (t.typmod() < 0 || seen.put(t.oid() + "/" + t.typmod(), true) != null) continue;
                conds.add(and(eq(oid, t.oid()), eq(typmod, t.typmod())));
                results.add(new Expr.Literal(t.displayName(), SqlType.TEXT));
            }
        }
        Map<Integer, String> names = new LinkedHashMap<>(PgTypeNames.formatted());
        for (Relation r : model().relations()) {
            if (r.hasRowType()) names.put(PgCatalog.oid(r.catalogId(), PgCatalog.Slot.ROW_TYPE), r.name());
        }
        Expr byType = lookup(oid, names, new Expr.Literal("???", SqlType.TEXT));
        if (conds.isEmpty()) return byType;
        return new Expr.Case(conds, results, byType, SqlType.TEXT);
    }

    /**
     * {@code pg_size_pretty(bigint)} as PostgreSQL 15 computes it: bytes below 10240, then the
     * first of kB, MB, GB, TB below 20479 half-units (rounded half away from zero), else PB.
     * Each step divides (truncating) by 512 into half-kB, then by 1024.
     */
    private static Expr sizePretty(Expr bytes) {
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        conds.add(within(bytes, 10240));
        results.add(concat("", bytes, " bytes"));
        Expr scaled = divide(bytes, 512);
        for (String unit : List.of("kB", "MB", "GB", "TB")) {
            conds.add(within(scaled, 20479));
            results.add(concat("", halfRounded(scaled), " " + unit));
            scaled = divide(scaled, 1024);
        }
        return new Expr.Case(conds, results, concat("", halfRounded(scaled), " PB"), SqlType.TEXT);
    }

    private static Expr divide(Expr e, long by) {
        return new Expr.Call(Func.DIVIDE, List.of(e, new Expr.Literal(by, SqlType.BIGINT)), SqlType.BIGINT);
    }

    /** {@code -limit < e < limit} (no abs(): it overflows on the smallest bigint). */
    private static Expr within(Expr e, long limit) {
        return and(new Expr.Call(Func.GT, List.of(e, new Expr.Literal(-limit, SqlType.BIGINT)), SqlType.BOOLEAN),
                new Expr.Call(Func.LT, List.of(e, new Expr.Literal(limit, SqlType.BIGINT)), SqlType.BOOLEAN));
    }

    /** PostgreSQL's half_rounded: {@code (e + sign) / 2}, sign -1 for negatives, else 1. */
    private static Expr halfRounded(Expr e) {
        Expr negative = new Expr.Call(Func.LT, List.of(e, new Expr.Literal(0L, SqlType.BIGINT)), SqlType.BOOLEAN);
        Expr down = new Expr.Call(Func.MINUS, List.of(e, new Expr.Literal(1L, SqlType.BIGINT)), SqlType.BIGINT);
        Expr up = new Expr.Call(Func.PLUS, List.of(e, new Expr.Literal(1L, SqlType.BIGINT)), SqlType.BIGINT);
        return divide(new Expr.Case(List.of(negative), List.of(down), up, SqlType.BIGINT), 2);
    }

    private static Expr stripPgCatalog(Expr arg) {
        if (arg instanceof Expr.Literal l && l.value() instanceof String s) {
            return new Expr.Literal(s.startsWith("pg_catalog.") ? s.substring("pg_catalog.".length()) : s, SqlType.TEXT);
        }
        return arg;
    }

    // ------------------------------------------------------------ expression building

    private static Expr nullIfFirstNull(List<Expr> args, Expr value) {
        if (args.isEmpty()) return value;
        return new Expr.Case(List.of(new Expr.Call(Func.IS_NULL, List.of(args.get(0)), SqlType.BOOLEAN)),
                List.of(new Expr.Literal(null, value.type())), value, value.type());
    }

    private static Expr asInteger(Expr e) {
        return e.type().kind() == TypeKind.INTEGER ? e : new Expr.Cast(e, SqlType.INTEGER);
    }

    private static Expr eq(Expr e, int value) {
        return new Expr.Call(Func.EQ, List.of(asInteger(e), new Expr.Literal(value, SqlType.INTEGER)), SqlType.BOOLEAN);
    }

    private static Expr and(Expr a, Expr b) { return new Expr.Call(Func.AND, List.of(a, b), SqlType.BOOLEAN); }

    private static Expr concat(String before, Expr e, String after) {
        Expr text = new Expr.Cast(e, SqlType.TEXT);
        Expr left = new Expr.Call(Func.CONCAT_OP, List.of(new Expr.Literal(before, SqlType.TEXT), text), SqlType.TEXT);
        return new Expr.Call(Func.CONCAT_OP, List.of(left, new Expr.Literal(after, SqlType.TEXT)), SqlType.TEXT);
    }

    /** {@code CASE WHEN arg = k1 THEN v1 ... ELSE otherwise END} over integer keys (NULL when otherwise is null). */
    private static Expr lookup(Expr arg, Map<Integer, String> table, Expr otherwise) {
        Map<Object, String> any = new LinkedHashMap<>(table);
        return lookupAny(arg, any, otherwise);
    }

    private static Expr lookupAny(Expr arg, Map<Object, String> table, Expr otherwise) {
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        table.forEach((k, v) -> {
            conds.add(k instanceof Integer i ? eq(arg, i) : new Expr.Call(Func.EQ,
                    List.of(arg, new Expr.Literal(k, SqlType.TEXT)), SqlType.BOOLEAN));
            results.add(new Expr.Literal(v, SqlType.TEXT));
        });
        Expr other = otherwise == null ? new Expr.Literal(null, SqlType.TEXT) : otherwise;
        if (conds.isEmpty()) return other;
        return new Expr.Case(conds, results, other, SqlType.TEXT);
    }

    /** {@code CASE WHEN arg = 'name1' THEN oid1 ... END} over text keys. */
    private static Expr lookupText(Expr arg, Map<String, Integer> table, Expr otherwise) {
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        table.forEach((k, v) -> {
            conds.add(new Expr.Call(Func.EQ, List.of(arg, new Expr.Literal(k, SqlType.TEXT)), SqlType.BOOLEAN));
            results.add(new Expr.Literal(v, SqlType.INTEGER));
        });
        Expr other = otherwise == null ? new Expr.Literal(null, SqlType.INTEGER) : otherwise;
        if (conds.isEmpty()) return other;
        return new Expr.Case(conds, results, other, SqlType.INTEGER);
    }
}
