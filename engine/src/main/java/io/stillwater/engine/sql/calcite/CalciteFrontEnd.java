package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.RecordingCatalogView;
import io.stillwater.engine.catalog.SecurityCatalog;
import java.util.function.Supplier;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * Plans SELECT / VALUES / WITH and INSERT / UPDATE / DELETE with Calcite configured for
 * PostgreSQL behaviour, producing the engine's plan IR.
 *
 * <p>The parser, validator and converter configurations, the operator table, the type
 * factory and the Hep programs are built once per instance and are immutable, so one
 * instance may be shared by threads; every {@link #plan} call builds its own small
 * per-statement objects (schema view, validator, cluster).
 */
public final class CalciteFrontEnd {
    private static final SqlConformance CONFORMANCE = new SqlDelegatingConformance(SqlConformanceEnum.LENIENT) {
        @Override
        public boolean shouldConvertRaggedUnionTypesToVarying() { return true; }

        @Override
        public boolean isGroupByAlias() { return true; }

        @Override
        public boolean isGroupByOrdinal() { return true; }

        @Override
        public boolean isHavingAlias() { return true; }

        @Override
        public boolean isSortByOrdinal() { return true; }

        @Override
        public boolean isSortByAlias() { return true; }

        @Override
        public boolean isFromRequired() { return false; }
    };

    private final SqlParser.Config parserConfig;
    private final RelDataTypeFactory typeFactory;
    private final SqlOperatorTable operatorTable;
    private final SqlValidator.Config validatorConfig;
    private final SqlToRelConverter.Config converterConfig;
    private final CalciteConnectionConfig connectionConfig;
    private final HepProgram subQueryProgram;
    private final HepProgram cleanupProgram;
    private final HepProgram projectMergeProgram;
    /** The role catalog catalog functions (pg_get_userbyid, has_table_privilege, ...) answer from. */
    private final Supplier<SecurityCatalog> security;

    public CalciteFrontEnd() { this(SecurityCatalog::empty); }

    /** @param security the role catalog current when a statement is planned */
    public CalciteFrontEnd(Supplier<SecurityCatalog> security) {
        this.security = security;
        parserConfig = SqlParser.config()
                .withParserFactory(SqlBabelParserImpl.FACTORY)
                .withConformance(CONFORMANCE)
                .withUnquotedCasing(Casing.TO_LOWER)
                .withQuotedCasing(Casing.UNCHANGED)
                .withQuoting(Quoting.DOUBLE_QUOTE)
                .withCaseSensitive(true)
                .withIdentifierMaxLength(1024);
        typeFactory = new PgTypeFactory();
        operatorTable = PgOperatorTable.create();
        validatorConfig = SqlValidator.Config.DEFAULT
                .withConformance(CONFORMANCE)
                .withIdentifierExpansion(true)
                .withDefaultNullCollation(NullCollation.HIGH)
                .withCallRewrite(false)
                .withTypeCoercionEnabled(true)
                .withTypeCoercionFactory(PgTypeCoercion::new);
        converterConfig = SqlToRelConverter.config()
                .withExpand(false)
                .withTrimUnusedFields(false)
                .withInSubQueryThreshold(Integer.MAX_VALUE)
                .withRemoveSortInSubQuery(true);
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        connectionConfig = new CalciteConnectionConfigImpl(props);
        subQueryProgram = HepProgram.builder()
                .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                        CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
                .build();
        cleanupProgram = HepProgram.builder()
                .addRuleCollection(List.of(CoreRules.FILTER_INTO_JOIN, CoreRules.JOIN_CONDITION_PUSH,
                        CoreRules.FILTER_MERGE, CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE,
                        SemiJoinRules.PROJECT_TO_SEMI_JOIN, SemiJoinRules.JOIN_TO_SEMI_JOIN))
                .build();
        // Folds the Project that JoinOrder puts over a reordered join into the query's own.
        projectMergeProgram = HepProgram.builder()
                .addRuleCollection(List.of(CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
                .build();
    }

    /** Plans one statement; every failure is a {@link SqlException}. */
    public Statement plan(String sql, List<SqlType> paramHints, CatalogView catalog) {
        sql = ClientCatalogQueries.rewrite(sql);
        PgTokens.Rewritten rewritten = PgTokens.rewrite(sql);
        try {
            SqlNode node = parse(rewritten);
            // Names resolved at the statement's top level are recorded for privilege checks.
            Ctx ctx = new Ctx(rewritten.sql(), paramHints, catalog, RecordingCatalogView.sinkOf(catalog), 0);
            ctx.limitParams = rewritten.limitParams();
            return switch (node.getKind()) {
                case INSERT -> insert((SqlInsert) node, ctx);
                case UPDATE -> update((SqlUpdate) node, ctx);
                case DELETE -> delete((SqlDelete) node, ctx);
                default -> {
                    if (!node.isA(SqlKind.QUERY)) {
                        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                                node.getKind().name().replace('_', ' ') + " statements are not supported here");
                    }
                    Planned p = planQuery(node, ctx);
                    yield new Statement.Query(p.plan, p.paramTypes);
                }
            };
        } catch (SqlException e) {
            throw e;
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError v && !(e instanceof StackOverflowError)) throw v;
            throw CalciteErrors.translate(e, rewritten);
        }
    }

    private SqlNode parse(String sql) throws SqlParseException {
        return parse(PgTokens.rewrite(sql));
    }

    private SqlNode parse(PgTokens.Rewritten sql) throws SqlParseException {
        return SqlParser.create(sql.sql(), parserConfig).parseStmt();
    }

    private record Planned(QueryPlan plan, List<SqlType> paramTypes) {}

    /** Per-statement state: the catalog snapshot and parameter hints. */
    private final class Ctx {
        /** Per {@code ?} of the (rewritten) text, the index of its {@code LIMIT/OFFSET $n}; see {@link PgTokens}. */
        int[] limitParams = new int[0];
        final List<SqlType> hints;
        final CatalogView catalog;
        final CalciteCatalogReader reader;

        final String sql;

        Ctx(String sql, List<SqlType> hints, CatalogView catalog) { this(sql, hints, catalog, null, 0); }

        /** @param references records the tables and views the statement names, or null; see {@link ViewPlanning} */
        Ctx(String sql, List<SqlType> hints, CatalogView catalog, Set<String> references, int viewDepth) {
            this.sql = sql;
            this.hints = hints == null ? List.of() : hints;
            this.catalog = catalog;
            CalciteSchema root = CalciteSchema.createRootSchema(false, false, "",
                    new CatalogSchema(catalog, new ViewPlanning(catalog, viewDepth), references));
            this.reader = new CalciteCatalogReader(root, List.of(), typeFactory, connectionConfig);
        }

        SqlType hint(int index) {
            if (index < hints.size()) {
                SqlType h = hints.get(index);
                if (h != null && h.kind() != TypeKind.UNKNOWN) return h;
            }
            return null;
        }

        RelDataType fallback(int index) {
            SqlType h = hint(index);
            return typeFactory.createTypeWithNullability(TypeMapping.toRel(h == null ? SqlType.TEXT : h, typeFactory), true);
        }
    }

    private static SqlDataTypeSpec spec(RelDataType t) {
        if (t.getSqlTypeName() == SqlTypeName.VARCHAR && t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
            return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR,
                    SqlParserPos.ZERO), SqlParserPos.ZERO);
        }
        if (t.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(
                    SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, t.getPrecision(), SqlParserPos.ZERO), SqlParserPos.ZERO);
        }
        return SqlTypeUtil.convertTypeToSpec(t);
    }

    private SqlNode spec(SqlType t) { return typeOperand(TypeMapping.toRel(t, typeFactory)); }

    /**
     * The type operand of a CAST to {@code t}. Interval types have no basic type-name
     * spec in Calcite: a CAST to an interval takes its interval qualifier instead.
     */
    private static SqlNode typeOperand(RelDataType t) {
        if (t.getIntervalQualifier() != null) {
            var q = t.getIntervalQualifier();
            return new SqlIntervalQualifier(q.getStartUnit(), q.getEndUnit(), SqlParserPos.ZERO);
        }
        return spec(t);
    }

    // ---------------------------------------------------------------- queries

    private Planned planQuery(SqlNode query, Ctx ctx) {
        PgSqlRewriter rewriter = new PgSqlRewriter(ctx.sql, ctx.limitParams,
                i -> ctx.hint(i) == null ? null : spec(ctx.hint(i)),
                i -> typeOperand(ctx.fallback(i)));
        SqlNode rewritten = NullInSubquery.apply(query.accept(rewriter));
        FromClauseReferences.check(rewritten); // after the rewriter has bound JOIN tighter than comma
        RecursiveCteRules.check(rewritten);
        GuardedScalarSubqueries.apply(rewritten);
        PgValidator validator = new PgValidator(operatorTable, ctx.reader, typeFactory, validatorConfig, ctx::fallback);
        SqlNode validated = validator.validate(rewritten);
        List<SqlType> paramTypes = paramTypes(rewriter, validator, ctx);

        RexBuilder rexBuilder = new PgRexBuilder(typeFactory);
        HepPlanner clusterPlanner = new HepPlanner(HepProgram.builder().build());
        clusterPlanner.setExecutor(PgRexBuilder.NO_CONSTANT_FOLDING);
        RelOptCluster cluster = RelOptCluster.create(clusterPlanner, rexBuilder);
        SqlToRelConverter converter = new SqlToRelConverter(null, validator, ctx.reader, cluster,
                StandardConvertletTable.INSTANCE, converterConfig);
        RelRoot root = converter.convertQuery(validated, false, true);
        RelNode rel = ViewOrder.liftToTop(optimize(root.rel, cluster, ctx));

        RexToExpr rex = new RexToExpr(rexBuilder, paramTypes, new PgCatalogFunctions(ctx.catalog, security.get()));
        RelToPlan toPlan = new RelToPlan(rex);
        List<SortKey> order = List.of();
        long limit = -1;
        long offset = 0;
        int limitParam = -1;
        int offsetParam = -1;
        RelNode top = rel;
        if (top instanceof LogicalSort s) {
            order = RelToPlan.sortKeys(s.getCollation());
            // LIMIT $n / OFFSET $n of the whole query are bound at execution (Plans.bindParams).
            if (s.fetch instanceof RexDynamicParam p) limitParam = p.getIndex();
            else limit = RelToPlan.constant(s.fetch, -1);
            if (s.offset instanceof RexDynamicParam p) offsetParam = p.getIndex();
            else offset = RelToPlan.constant(s.offset, 0);
            top = s.getInput();
        }
        PlanNode body = toPlan.translate(top);

        // RelRoot.fields selects the output columns of rel; move them to the front if needed.
        List<Integer> outCols = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (var f : root.fields) {
            outCols.add(f.getKey());
            names.add(PgSqlRewriter.displayName(f.getValue()));
        }
        boolean prefix = true;
        for (int i = 0; i < outCols.size(); i++) prefix &= outCols.get(i) == i;
        if (!prefix) {
            List<Integer> perm = new ArrayList<>(outCols);
            for (int i = 0; i < body.arity(); i++) if (!perm.contains(i)) perm.add(i);
            List<Expr> exprs = new ArrayList<>();
            for (int c : perm) exprs.add(new Expr.Column(c, body.types().get(c)));
            body = new PlanNode.Project(body, exprs);
            List<SortKey> remapped = new ArrayList<>();
            for (SortKey k : order) remapped.add(new SortKey(perm.indexOf(k.column()), k.descending(), k.nullsFirst()));
            order = remapped;
        }
        fixStarNames(validated, names);
        if (isValues(validated)) {
            for (int i = 0; i < names.size(); i++) names.set(i, "column" + (i + 1));
        }
        List<SqlType> types = body.types().subList(0, names.size());
        return new Planned(new QueryPlan(body, order, limit, offset, names, types, limitParam, offsetParam), paramTypes);
    }

    /**
     * Calcite makes the names of a star expansion unique ({@code a}, {@code a0});
     * PostgreSQL repeats them. Restores the column's own name for such items.
     */
    private static void fixStarNames(SqlNode n, List<String> names) {
        while (n instanceof SqlOrderBy || n instanceof SqlWith) n = n instanceof SqlOrderBy o ? o.query : ((SqlWith) n).body;
        if (!(n instanceof SqlSelect select) || select.getSelectList() == null) return;
        SqlNodeList items = select.getSelectList();
        for (int i = 0; i < Math.min(items.size(), names.size()); i++) {
            if (items.get(i).getKind() == SqlKind.AS && ((SqlCall) items.get(i)).operand(0) instanceof SqlIdentifier id
                    && !id.isStar()) {
                String own = id.names.get(id.names.size() - 1);
                String alias = names.get(i);
                if (!alias.equals(own) && alias.startsWith(own) && alias.substring(own.length()).matches("[0-9]+")) {
                    names.set(i, own);
                }
            }
        }
    }

    private static boolean isValues(SqlNode n) {
        while (true) {
            if (n instanceof SqlOrderBy o) n = o.query;
            else if (n instanceof SqlWith w) n = w.body;
            else return n.getKind() == SqlKind.VALUES;
        }
    }

    private List<SqlType> paramTypes(PgSqlRewriter rewriter, PgValidator validator, Ctx ctx) {
        int n = Math.max(rewriter.maxParamIndex + 1, ctx.hints.size());
        SqlType[] out = new SqlType[n];
        for (SqlDynamicParam p : rewriter.params) {
            int i = p.getIndex();
            if (out[i] != null) continue;
            SqlType h = ctx.hint(i);
            if (h != null) {
                out[i] = h;
                continue;
            }
            if (rewriter.limitParamIndexes.contains(i)) {
                out[i] = SqlType.BIGINT; // PostgreSQL's type for LIMIT $n and OFFSET $n
                continue;
            }
            RelDataType t = validator.getValidatedNodeTypeIfKnown(p);
            if (t != null && t.getSqlTypeName() != SqlTypeName.UNKNOWN && t.getSqlTypeName() != SqlTypeName.NULL) {
                out[i] = TypeMapping.fromRel(t);
            }
        }
        for (int i = 0; i < n; i++) {
            if (out[i] == null) out[i] = ctx.hint(i) == null ? SqlType.TEXT : ctx.hint(i);
        }
        return List.of(out);
    }

    private RelNode optimize(RelNode rel, RelOptCluster cluster, Ctx ctx) {
        // With expand=false, correlation only ever comes from subquery expressions: plans
        // without them (point queries) skip subquery removal and decorrelation.
        if (hasSubQuery(rel)) rel = ScalarSubqueryInliner.apply(rel, cluster.getRexBuilder());
        if (hasSubQuery(rel)) {
            HepPlanner p1 = new HepPlanner(subQueryProgram);
            p1.setExecutor(PgRexBuilder.NO_CONSTANT_FOLDING);
            p1.setRoot(rel);
            rel = p1.findBestExp();
            RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, ctx.reader);
            rel = ConstantKeyAggregates.apply(rel, relBuilder);
            rel = LateralJoins.apply(rel, relBuilder);
            rel = RelDecorrelator.decorrelateQuery(rel, relBuilder);
            rel = NullSafeValueJoins.apply(rel, cluster.getRexBuilder());
        }
        HepPlanner p2 = new HepPlanner(cleanupProgram);
        p2.setExecutor(PgRexBuilder.NO_CONSTANT_FOLDING);
        p2.setRoot(rel);
        rel = p2.findBestExp();
        rel = SingleValueKeys.apply(rel, RelFactories.LOGICAL_BUILDER.create(cluster, ctx.reader));
        // With the predicates in the joins, order inner joins along their equalities.
        RelNode ordered = JoinOrder.apply(rel);
        if (ordered == rel) return rel;
        HepPlanner p3 = new HepPlanner(projectMergeProgram);
        p3.setExecutor(PgRexBuilder.NO_CONSTANT_FOLDING);
        p3.setRoot(ordered);
        return p3.findBestExp();
    }

    private static boolean hasSubQuery(RelNode root) {
        boolean[] found = {false};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found[0] = true;
                return subQuery;
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (found[0]) return;
                // LATERAL: the converter builds the correlation directly, without a subquery expression.
                if (node instanceof org.apache.calcite.rel.core.Correlate) found[0] = true;
                node.accept(finder);
                super.visit(node, ordinal, parent);
            }
        }.go(root);
        return found[0];
    }

    // ---------------------------------------------------------------- DML

    private TableDef targetTable(SqlNode target, Ctx ctx) {
        SqlIdentifier id = (SqlIdentifier) (target.getKind() == SqlKind.AS ? ((SqlCall) target).operand(0) : target);
        String name = id.names.get(id.names.size() - 1);
        if (ctx.catalog.materializedView(name).isPresent()) {
            throw new SqlException(SqlState.WRONG_OBJECT_TYPE, "cannot change materialized view \"" + name + "\"");
        }
        if (ctx.catalog.view(name).isPresent()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "cannot write to view \"" + name + "\"",
                    "Views are read-only in Stillwater.", "Write to the tables the view reads instead.");
        }
        return ctx.catalog.table(name).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_TABLE,
                "relation \"" + name + "\" does not exist"));
    }

    private static int[] columns(TableDef table, SqlNodeList list) {
        if (list == null || list.isEmpty()) {
            int[] all = new int[table.columns().size()];
            for (int i = 0; i < all.length; i++) all[i] = i;
            return all;
        }
        int[] out = new int[list.size()];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            SqlIdentifier id = (SqlIdentifier) list.get(i);
            String col = id.names.get(id.names.size() - 1);
            if (!seen.add(col)) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + col + "\" specified more than once");
            }
            out[i] = table.columnIndex(col).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_COLUMN,
                    "column \"" + col + "\" of relation \"" + table.name() + "\" does not exist"));
        }
        return out;
    }

    /**
     * PostgreSQL resolves untyped items assigned to a column (string literals, NULL,
     * parameters) to the column's type at parse time; do the same with a CAST.
     */
    private SqlNode coerceToColumn(SqlNode item, ColumnDef column) {
        SqlType columnType = column.type();
        if (item.getKind() == SqlKind.DEFAULT || isDefaultMarker(item)) item = defaultOf(column, item.getParserPosition());
        boolean untyped = PgSqlRewriter.paramIndex(item) >= 0
                || (item instanceof SqlLiteral lit && (lit.getTypeName() == SqlTypeName.NULL
                        || lit.getTypeName() == SqlTypeName.CHAR));
        if (!untyped) return item;
        // The type without modifiers: the session's assignment cast applies them, with
        // PostgreSQL's errors (22001 for a too-long string) instead of an explicit cast's
        // silent truncation.
        SqlType target = switch (columnType.kind()) {
            case NUMERIC -> SqlType.NUMERIC;
            case VARCHAR, CHAR -> SqlType.TEXT;
            default -> columnType;
        };
        return SqlStdOperatorTable.CAST.createCall(item.getParserPosition(), item, spec(target));
    }

    /**
     * DEFAULT in VALUES or SET: the column's default. Defaults are constants already of the
     * column's type (see {@link io.stillwater.engine.catalog.ColumnDef}), so the value is
     * spelled as its PostgreSQL text, an untyped literal that the assignment reads back
     * with the type's input function (an exact round trip); no default is NULL. Doing it
     * here keeps Statement.Insert/Update unchanged: the source simply yields the default.
     */
    private static SqlNode defaultOf(ColumnDef column, SqlParserPos pos) {
        if (column.defaultValue() == null) return SqlLiteral.createNull(pos);
        // No character set, as the parser does for '...': the text may hold any Unicode.
        return SqlLiteral.createCharString(
                DatumText.format(column.type(), column.defaultValue()), null, pos);
    }

    private static boolean isDefaultMarker(SqlNode item) {
        return item instanceof SqlCall c && c.operandCount() == 0
                && c.getOperator().getName().equals(PgTokens.DEFAULT_MARKER_NAME);
    }

    private Statement insert(SqlInsert insert, Ctx ctx) {
        TableDef table = targetTable(insert.getTargetTable(), ctx);
        SqlNode source = insert.getSource();
        int[] targets = columns(table, insert.getTargetColumnList());
        boolean noColumnList = insert.getTargetColumnList() == null || insert.getTargetColumnList().isEmpty();
        if (noColumnList) {
            // Without a column list, the source fills the first columns; the rest take defaults.
            int width = sourceWidth(source);
            if (width > targets.length) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
            }
            if (width >= 0) targets = Arrays.copyOf(targets, width);
        }
        if (source.getKind() == SqlKind.VALUES) {
            SqlCall values = (SqlCall) source;
            for (SqlNode rowNode : values.getOperandList()) {
                SqlBasicCall row = (SqlBasicCall) rowNode;
                checkArity(row.operandCount(), targets.length);
                for (int i = 0; i < row.operandCount(); i++) {
                    row.setOperand(i, coerceToColumn(row.operand(i), table.columns().get(targets[i])));
                }
            }
        }
        Planned p = planQuery(source, ctx);
        if (noColumnList && p.plan.columnNames().size() < targets.length) {
            targets = Arrays.copyOf(targets, p.plan.columnNames().size());
        }
        checkArity(p.plan.columnNames().size(), targets.length);
        return new Statement.Insert(table, targets, p.plan, p.paramTypes);
    }

    /** Number of columns of a VALUES source, or -1 when only validation can tell. */
    private static int sourceWidth(SqlNode source) {
        if (source.getKind() == SqlKind.VALUES) {
            return ((SqlCall) ((SqlCall) source).operand(0)).operandCount();
        }
        return -1;
    }

    private static void checkArity(int items, int targets) {
        if (items > targets) throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
        if (items < targets) throw new SqlException(SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
    }

    private static SqlNode fromItem(SqlNode target, SqlIdentifier alias) {
        if (alias == null) return target;
        return SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, target, alias);
    }

    private Statement update(SqlUpdate update, Ctx ctx) {
        TableDef table = targetTable(update.getTargetTable(), ctx);
        int[] setColumns = columns(table, update.getTargetColumnList());
        List<SqlNode> items = new ArrayList<>();
        items.add(SqlIdentifier.star(SqlParserPos.ZERO));
        SqlNodeList sources = update.getSourceExpressionList();
        for (int i = 0; i < sources.size(); i++) {
            items.add(coerceToColumn(sources.get(i), table.columns().get(setColumns[i])));
        }
        SqlSelect select = new SqlSelect(SqlParserPos.ZERO, null, new SqlNodeList(items, SqlParserPos.ZERO),
                fromItem(update.getTargetTable(), update.getAlias()), update.getCondition(), null, null, null,
                null, null, null, null, null);
        Planned p = planQuery(select, ctx);
        return new Statement.Update(table, setColumns, p.plan, p.paramTypes);
    }

    private Statement delete(SqlDelete delete, Ctx ctx) {
        TableDef table = targetTable(delete.getTargetTable(), ctx);
        SqlSelect select = new SqlSelect(SqlParserPos.ZERO, null,
                new SqlNodeList(List.of(SqlIdentifier.star(SqlParserPos.ZERO)), SqlParserPos.ZERO),
                fromItem(delete.getTargetTable(), delete.getAlias()), delete.getCondition(), null, null, null,
                null, null, null, null, null);
        Planned p = planQuery(select, ctx);
        return new Statement.Delete(table, p.plan, p.paramTypes);
    }

    // ---------------------------------------------------------------- views

    /** A view's query as planned at CREATE VIEW: its plan and the tables and views it names directly. */
    public record PlannedView(QueryPlan plan, Set<String> references) {}

    /**
     * Plans the query of a view being created, as a SELECT would be planned, and records
     * the tables and views it names directly (names inside the views it reads are those
     * views' own dependencies). Parameters ({@code $1}) are 42P02, as in PostgreSQL.
     */
    public PlannedView planView(String sql, CatalogView catalog) {
        try {
            SqlNode node = parse(sql);
            if (!node.isA(SqlKind.QUERY)) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "a view's definition must be a query (SELECT, VALUES, WITH, TABLE)");
            }
            Set<String> references = new LinkedHashSet<>();
            Planned p = planQuery(node, new Ctx(sql, List.of(), catalog, references, 0));
            if (!p.paramTypes.isEmpty()) throw new SqlException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $1");
            return new PlannedView(p.plan, Set.copyOf(references));
        } catch (SqlException e) {
            throw e;
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError v && !(e instanceof StackOverflowError)) throw v;
            throw CalciteErrors.translate(e, sql);
        }
    }

    /**
     * Expands views for {@link CatalogSchema}: each view's stored query is parsed,
     * rewritten and validated in its own context (so its names are not the outer
     * statement's references) and converted in the outer statement's cluster. Cycles are
     * refused when views are created; the depth bound is a second line of defence.
     */
    private final class ViewPlanning implements CatalogSchema.ViewExpander {
        private static final int MAX_DEPTH = 64;
        private final CatalogView catalog;
        private final int depth;

        ViewPlanning(CatalogView catalog, int depth) {
            this.catalog = catalog;
            this.depth = depth;
        }

        private record Validated(Ctx ctx, PgValidator validator, SqlNode node) {}

        private Validated validate(ViewDef view) {
            if (depth >= MAX_DEPTH) {
                throw new SqlException(SqlState.INVALID_OBJECT_DEFINITION,
                        "infinite recursion detected in rules for relation \"" + view.name() + "\"");
            }
            try {
                Ctx ctx = new Ctx(view.definition(), List.of(), catalog, null, depth + 1);
                PgSqlRewriter rewriter = new PgSqlRewriter(view.definition(), i -> null, i -> typeOperand(ctx.fallback(i)));
                SqlNode rewritten = parse(view.definition()).accept(rewriter);
                PgValidator validator = new PgValidator(operatorTable, ctx.reader, typeFactory, validatorConfig, ctx::fallback);
                return new Validated(ctx, validator, validator.validate(rewritten));
            } catch (SqlParseException e) {
                throw new SqlException(SqlState.INTERNAL_ERROR, "stored definition of view \"" + view.name()
                        + "\" does not parse: " + e.getMessage());
            }
        }

        @Override
        public RelDataType rowType(ViewDef view) {
            Validated v = validate(view);
            RelDataType t = v.validator.getValidatedNodeType(v.node);
            List<RelDataType> types = new ArrayList<>();
            t.getFieldList().stream().limit(view.columnNames().size()).forEach(f -> types.add(f.getType()));
            return typeFactory.createStructType(types, view.columnNames());
        }

        @Override
        public RelNode expand(ViewDef view, RelOptCluster cluster) {
            Validated v = validate(view);
            SqlToRelConverter converter = new SqlToRelConverter(null, v.validator, v.ctx.reader, cluster,
                    StandardConvertletTable.INSTANCE, converterConfig);
            // As a top query: its ORDER BY stays a sort (see ViewOrder) instead of failing
            // Calcite's assertion for a sorted subquery.
            return converter.convertQuery(v.node, false, true).project();
        }
    }
}
