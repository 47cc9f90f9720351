package io.stillwater.engine.sql.parse;

import io.stillwater.engine.catalog.Privilege;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.AccessStatement;
import io.stillwater.engine.sql.AccessStatement.ObjectClass;
import io.stillwater.engine.sql.AccessStatement.RoleOptions;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * CREATE/ALTER/DROP ROLE (and USER), GRANT, REVOKE and ALTER ... OWNER TO, in
 * PostgreSQL's syntax where PostgreSQL and Materialize agree. Options and object kinds
 * Stillwater does not implement are 0A000 naming them; the rest is PostgreSQL's 42601.
 * A PASSWORD literal ends up only in {@link RoleOptions}, which never prints it.
 */
final class AccessControlParser {
    private AccessControlParser() {}

    /** Role options that are PostgreSQL's defaults and mean nothing here: accepted and ignored. */
    private static final Set<String> DEFAULT_OPTIONS = Set.of("nocreatedb", "noreplication", "nobypassrls");

    /** CREATE ROLE|USER name [[WITH] option ...]; the cursor is at ROLE or USER. */
    static Statement createRole(TokenCursor c) {
        boolean user = c.next().isWord("user");
        String name = c.name();
        return wrap(new AccessStatement.CreateRole(name, user, options(c, user ? "CREATE USER" : "CREATE ROLE")));
    }

    /** ALTER ROLE|USER name [WITH] option ...; the cursor is at ROLE or USER. */
    static Statement alterRole(TokenCursor c) {
        String what = c.next().isWord("user") ? "ALTER USER" : "ALTER ROLE";
        String name = c.name();
        if (c.atWord("rename")) throw Unsupported.named(what + " ... RENAME");
        if (c.atWord("set") || c.atWord("reset")) throw Unsupported.named(what + " ... " + c.peek().text().toUpperCase(Locale.ROOT));
        RoleOptions options = options(c, what);
        return wrap(new AccessStatement.AlterRole(name, options));
    }

    /** DROP ROLE|USER [IF EXISTS] a [, ...]; the cursor is at ROLE or USER. */
    static Statement dropRole(TokenCursor c) {
        c.next();
        boolean ifExists = c.acceptWords("if", "exists");
        List<String> names = new ArrayList<>();
        do names.add(c.name()); while (c.acceptSymbol(","));
        return wrap(new AccessStatement.DropRole(names, ifExists));
    }

    private static RoleOptions options(TokenCursor c, String statement) {
        Boolean login = null, superuser = null, createRole = null, inherit = null;
        String password = null;
        boolean passwordNull = false;
        c.acceptWord("with");
        while (!c.atSymbol(";") && c.peek().kind() != TokenKind.EOF) {
            Token t = c.next();
            String w = t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.KEYWORD ? t.text() : "";
            switch (w) {
                case "login", "nologin" -> login = once(login, w.equals("login"), t);
                case "superuser", "nosuperuser" -> superuser = once(superuser, w.equals("superuser"), t);
                case "createrole", "nocreaterole" -> createRole = once(createRole, w.equals("createrole"), t);
                case "inherit", "noinherit" -> inherit = once(inherit, w.equals("inherit"), t);
                case "encrypted", "password" -> {
                    if (w.equals("encrypted")) c.expectWord("password");
                    if (password != null || passwordNull) throw redundant(t);
                    Token value = c.next();
                    if (value.isWord("null") && !w.equals("encrypted")) passwordNull = true;
                    else if (value.kind() == TokenKind.STRING) password = value.text();
                    else throw syntaxErrorAt(value);
                }
                case "unencrypted" -> throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "UNENCRYPTED PASSWORD is no longer supported", null, "Remove UNENCRYPTED to encrypt the password instead.");
                default -> {
                    if (DEFAULT_OPTIONS.contains(w)) continue;
                    if (w.isEmpty()) throw syntaxErrorAt(t);
                    throw Unsupported.named(statement + " ... " + w.toUpperCase(Locale.ROOT));
                }
            }
        }
        return new RoleOptions(login, superuser, createRole, inherit, password, passwordNull);
    }

    private static Boolean once(Boolean previous, boolean value, Token t) {
        if (previous != null) throw redundant(t);
        return value;
    }

    private static SqlException redundant(Token t) {
        return new SqlSyntaxException("conflicting or redundant options", t.offset());
    }

    /** A syntax error at {@code t} that never echoes a string constant (it may be a password). */
    private static SqlSyntaxException syntaxErrorAt(Token t) {
        if (t.kind() == TokenKind.STRING) return new SqlSyntaxException("syntax error at or near a string constant", t.offset());
        return SqlSyntaxException.at(t);
    }

    /**
     * GRANT privileges ON objects TO grantees, or REVOKE [GRANT OPTION FOR] privileges ON
     * objects FROM grantees [CASCADE | RESTRICT]; the cursor is at GRANT or REVOKE.
     */
    static Statement grantOrRevoke(TokenCursor c) {
        boolean grant = c.next().isWord("grant");
        if (!grant && c.atWords("grant", "option")) throw Unsupported.named("REVOKE GRANT OPTION FOR");
        Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
        if (c.acceptWord("all")) {
            c.acceptWord("privileges");
        } else {
            do {
                Token t = c.next();
                Privilege p = t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.KEYWORD ? Privilege.parse(t.text()) : null;
                if (p == null) {
                    if (!c.atWord("on") && !c.atSymbol(",")) {
                        throw Unsupported.named((grant ? "GRANT" : "REVOKE") + " of role membership");
                    }
                    if (t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.KEYWORD) {
                        throw Unsupported.named("privilege " + t.text().toUpperCase(Locale.ROOT));
                    }
                    throw SqlSyntaxException.at(t);
                }
                if (c.atSymbol("(")) throw Unsupported.named("column privileges");
                privileges.add(p);
            } while (c.acceptSymbol(","));
        }
        if (!c.atWord("on")) throw Unsupported.named((grant ? "GRANT" : "REVOKE") + " of role membership");
        c.next();
        ObjectClass objectClass = ObjectClass.RELATION;
        String kindWord = null;
        List<String> objects = new ArrayList<>();
        if (c.acceptWords("all", "tables", "in", "schema")) {
            objectClass = ObjectClass.ALL_TABLES_IN_PUBLIC;
            String schema = c.name();
            if (!schema.equals("public")) {
                throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED, "schema \"%s\" is not supported: tables live in schema \"public\"", schema);
            }
        } else if (c.acceptWord("cluster")) {
            objectClass = ObjectClass.CLUSTER;
            kindWord = "cluster";
            do objects.add(c.clusterName()); while (c.acceptSymbol(","));
        } else {
            if (c.acceptWord("table")) kindWord = "table";
            else if (c.acceptWord("view")) kindWord = "view";
            else if (c.acceptWords("materialized", "view")) kindWord = "materialized view";
            else if (c.peek(1).kind() == TokenKind.IDENTIFIER || c.peek(1).kind() == TokenKind.QUOTED_IDENTIFIER
                    || c.peek(1).kind() == TokenKind.KEYWORD && !c.peek(1).isWord("to") && !c.peek(1).isWord("from")) {
                // GRANT ... ON SCHEMA s / DATABASE d / SEQUENCE s / FUNCTION f ...
                throw Unsupported.named((grant ? "GRANT" : "REVOKE") + " ON " + c.peek().text().toUpperCase(Locale.ROOT));
            }
            do objects.add(c.tableName()); while (c.acceptSymbol(","));
        }
        if (grant) c.expectWord("to");
        else c.expectWord("from");
        List<String> grantees = new ArrayList<>();
        do {
            c.acceptWord("group");
            grantees.add(c.name());
        } while (c.acceptSymbol(","));
        if (grant && c.atWord("with")) throw Unsupported.named("GRANT ... WITH GRANT OPTION");
        if (c.atWords("granted", "by")) throw Unsupported.named((grant ? "GRANT" : "REVOKE") + " ... GRANTED BY");
        if (!grant && !c.acceptWord("restrict")) c.acceptWord("cascade");
        return wrap(new AccessStatement.Grant(grant, privileges, objectClass, kindWord, objects, grantees));
    }

    /**
     * ALTER {TABLE|VIEW|MATERIALIZED VIEW|INDEX|CLUSTER} [IF EXISTS] name OWNER TO role,
     * with the cursor after ALTER; null (cursor unchanged) for any other ALTER.
     */
    static Statement alterOwner(TokenCursor c) {
        int start = c.mark();
        String kind;
        if (c.acceptWord("table")) kind = "table";
        else if (c.acceptWord("view")) kind = "view";
        else if (c.acceptWords("materialized", "view")) kind = "materialized view";
        else if (c.acceptWord("index")) kind = "index";
        else if (c.atWord("cluster") && !c.peek(1).isWord("replica")) {
            c.next();
            kind = "cluster";
        } else {
            return null;
        }
        if (c.peek().kind() != TokenKind.IDENTIFIER && c.peek().kind() != TokenKind.QUOTED_IDENTIFIER
                && !(kind.equals("cluster") && c.atWord("default"))) {
            c.reset(start);
            return null;
        }
        String name = kind.equals("cluster") ? c.clusterName() : c.tableName();
        if (!c.acceptWords("owner", "to")) {
            c.reset(start);
            return null;
        }
        return wrap(new AccessStatement.AlterOwner(kind, name, c.name()));
    }

    private static Statement wrap(AccessStatement s) { return new Statement.AccessControl(s); }
}
