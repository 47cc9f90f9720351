package io.stillwater.engine.sql.planner;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.PgCatalog;
import io.stillwater.engine.catalog.RecordingCatalogView;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.parse.SqlLexer;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Plans the commonest statements without Calcite, straight from their tokens:
 * <ul>
 *   <li>{@code SELECT <literal> [AS name], ...} without FROM;</li>
 *   <li>point lookups {@code SELECT * | col [AS name], ... FROM [public.]rel WHERE col =
 *       <literal | $n> [AND col = ...]} on a table or materialized view;</li>
 *   <li>{@code INSERT INTO [public.]table [(cols)] VALUES (<literal | NULL>, ...), ...}, or
 *       one row of parameters {@code VALUES ($1, ...)}.</li>
 * </ul>
 * The plan is the one the Calcite path makes for the same text (same {@code PlanNode}s,
 * result names and types, parameter types), so everything after planning — the plan
 * cache, the peek fast path's index lookup, the writer's assignment casts, defaults,
 * NOT NULL checks and their SQLSTATEs — sees no difference. {@link FastLiteral} holds the
 * typing rules.
 *
 * <p>The contract: answer only when sure. Anything else — casts, functions, operators,
 * signs, quoted identifiers, unknown names (whose errors Calcite words), column types or
 * parameter hints whose coercions Calcite decides — returns empty and the statement takes
 * the usual way. The relation a SELECT reads is recorded in the catalog view's reference
 * sink (as the Calcite path does), so privilege checks see it.
 *
 * <p>Stateless and thread-safe.
 */
public final class FastPathPlanner {
    private FastPathPlanner() {}

    /** The statement planned without Calcite, or empty when it is not one of the shapes (or not sure). */
    public static Optional<Statement> plan(String sql, List<SqlType> paramHints, CatalogView catalog) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (RuntimeException e) {
            return Optional.empty(); // the usual path reports the lexical error
        }
        TokenCursor c = new TokenCursor(tokens);
        Statement planned;
        if (c.acceptWord("select")) {
            planned = select(c, paramHints, catalog);
        } else if (c.acceptWord("insert")) {
            planned = FastPathInsert.insert(c, paramHints, catalog);
        } else {
            planned = null;
        }
        return Optional.ofNullable(planned);
    }

    /** A select-list entry as written: a literal or a column name, with its alias. */
    private record Item(Token value, String alias) {}

    private static Statement select(TokenCursor c, List<SqlType> hints, CatalogView catalog) {
        boolean star = c.acceptSymbol("*");
        List<Item> items = new ArrayList<>();
        if (!star) {
            do {
                Token value = c.next();
                String alias = null;
                if (c.acceptWord("as") && (alias = c.acceptIdentifier()) == null) return null;
                items.add(new Item(value, alias));
            } while (c.acceptSymbol(","));
        }
        if (c.atEnd()) return star ? null : literalRow(items, hints);
        if (!c.acceptWord("from")) return null;
        Relation rel = Relation.resolve(c, catalog, false);
        if (rel == null || !c.acceptWord("where")) return null;
        return lookup(c, star, items, rel, hints, catalog);
    }

    /** {@code SELECT 1, 'x' AS name}: one constant row, named {@code ?column?} unless aliased. */
    private static Statement literalRow(List<Item> items, List<SqlType> hints) {
        if (!hints.isEmpty()) return null;
        List<Object> row = new ArrayList<>(items.size());
        List<SqlType> types = new ArrayList<>(items.size());
        List<String> names = new ArrayList<>(items.size());
        for (Item item : items) {
            Expr.Literal lit = FastLiteral.standalone(item.value());
            if (lit == null) return null;
            row.add(lit.value());
            types.add(lit.type());
            names.add(item.alias() == null ? "?column?" : item.alias());
        }
        PlanNode body = new PlanNode.Constant(List.of(Row.of(row)), types);
        return new Statement.Query(new QueryPlan(body, List.of(), -1, 0, names, types), List.of());
    }

    /** The WHERE of a point lookup: {@code col = literal|$n [AND ...]}, then the select list over it. */
    private static Statement lookup(TokenCursor c, boolean star, List<Item> items, Relation rel,
                                    List<SqlType> hints, CatalogView catalog) {
        TableDef def = rel.def();
        List<Expr> predicates = new ArrayList<>();
        Parameters params = new Parameters();
        do {
            int col = columnIndex(def, c.acceptIdentifier());
            if (col < 0 || !c.acceptSymbol("=")) return null;
            SqlType type = def.columns().get(col).type();
            Token operand = c.next();
            Expr right;
            if (operand.kind() == TokenKind.PARAMETER) {
                right = params.add(operand, FastLiteral.parameterFor(type));
            } else {
                right = FastLiteral.comparedWith(operand, type);
            }
            if (right == null) return null;
            predicates.add(new Expr.Call(Func.EQ, List.of(new Expr.Column(col, type), right), SqlType.BOOLEAN));
        } while (c.acceptWord("and"));
        if (!c.atEnd()) return null;
        List<SqlType> paramTypes = params.types(hints);
        if (paramTypes == null) return null;

        List<SqlType> columnTypes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Expr> exprs = new ArrayList<>();
        if (star) {
            for (int i = 0; i < def.columns().size(); i++) {
                ColumnDef cd = def.columns().get(i);
                exprs.add(new Expr.Column(i, cd.type()));
                names.add(cd.name());
                columnTypes.add(cd.type());
            }
        } else {
            for (Item item : items) {
                if (item.value().kind() != TokenKind.IDENTIFIER) return null;
                int col = columnIndex(def, item.value().text());
                if (col < 0) return null;
                SqlType type = def.columns().get(col).type();
                exprs.add(new Expr.Column(col, type));
                names.add(item.alias() == null ? item.value().text() : item.alias());
                columnTypes.add(type);
            }
        }
        PlanNode body = new PlanNode.Filter(rel.get(), predicates);
        if (!isIdentity(exprs, def.columns().size())) body = new PlanNode.Project(body, exprs);
        rel.record(catalog);
        return new Statement.Query(new QueryPlan(body, List.of(), -1, 0, names, columnTypes), paramTypes);
    }

    /** The column's position, or -1 for no name or an unknown one (whose error Calcite words). */
    static int columnIndex(TableDef def, String name) {
        if (name == null) return -1;
        List<ColumnDef> columns = def.columns();
        for (int i = 0; i < columns.size(); i++) if (columns.get(i).name().equals(name)) return i;
        return -1;
    }

    /** Whether {@code exprs} are the relation's columns in order (Calcite removes such a projection). */
    private static boolean isIdentity(List<Expr> exprs, int arity) {
        if (exprs.size() != arity) return false;
        for (int i = 0; i < arity; i++) {
            if (!(exprs.get(i) instanceof Expr.Column col) || col.index() != i) return false;
        }
        return true;
    }

    /**
     * A relation named in FROM or INTO: {@code def} its columns (a materialized view as a
     * table). Resolution follows the Calcite path's: an unqualified name that is a {@code
     * pg_catalog} relation is that relation (left to Calcite), else a table, else a
     * materialized view; views (expanded or read from an index) are left to Calcite.
     */
    record Relation(TableDef def) {
        static Relation resolve(TokenCursor c, CatalogView catalog, boolean tableOnly) {
            String name = c.acceptIdentifier();
            if (name == null) return null;
            if (c.acceptSymbol(".")) {
                if (!name.equals("public") || (name = c.acceptIdentifier()) == null) return null;
            } else if (SystemRelations.lookup(PgCatalog.PG_CATALOG, name).isPresent()) {
                return null;
            }
            Optional<TableDef> table = catalog.table(name);
            if (table.isPresent()) return new Relation(table.get());
            if (tableOnly) return null;
            return catalog.materializedView(name).map(mv -> new Relation(mv.asTable())).orElse(null);
        }

        PlanNode.Get get() {
            return new PlanNode.Get(def.id(), def.name(), def.types());
        }

        /** Records the relation for the privilege checks, as the Calcite path's name resolution does. */
        void record(CatalogView catalog) {
            var sink = RecordingCatalogView.sinkOf(catalog);
            if (sink != null) sink.add(def.name());
        }
    }

    /**
     * The {@code $n} of one statement, by number: each must appear once and the numbers
     * must be {@code 1..N}, each of a type the fast path knows; the client's type hints
     * must be absent, unknown or that same type (else Calcite decides the coercion).
     */
    static final class Parameters {
        private final List<SqlType> byNumber = new ArrayList<>();

        /** The parameter {@code token} of type {@code type}, or null when not acceptable. */
        Expr.Param add(Token token, SqlType type) {
            if (type == null || token.text().length() > 4) return null;
            int n = Integer.parseInt(token.text());
            if (n < 1) return null;
            while (byNumber.size() < n) byNumber.add(null);
            if (byNumber.get(n - 1) != null) return null;
            byNumber.set(n - 1, type);
            return new Expr.Param(n - 1, type);
        }

        boolean isEmpty() { return byNumber.isEmpty(); }

        /** The statement's parameter types, or null when a number is missing or a hint disagrees. */
        List<SqlType> types(List<SqlType> hints) {
            if (hints.size() > byNumber.size()) return null;
            for (int i = 0; i < byNumber.size(); i++) {
                SqlType t = byNumber.get(i);
                if (t == null) return null;
                SqlType hint = i < hints.size() ? hints.get(i) : null;
                if (hint != null && hint.kind() != TypeKind.UNKNOWN && !hint.equals(t)) return null;
            }
            return List.copyOf(byNumber);
        }
    }
}
