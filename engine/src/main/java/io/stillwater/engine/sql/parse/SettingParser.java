package io.stillwater.engine.sql.parse;

import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Settings: SET / RESET / SHOW of session variables (and the SHOW forms that list
 * catalog objects and clusters), and ALTER SYSTEM SET / RESET of system parameters.
 * Part of {@link UtilityParser}; stateless.
 */
final class SettingParser {
    private SettingParser() {}

    static Statement set(TokenCursor c) {
        c.next(); // SET
        boolean local = false;
        if (c.atWord("local") && !isAssignment(c.peek(1))) {
            c.next();
            local = true;
        } else if (c.atWord("session") && !isAssignment(c.peek(1))) {
            c.next();
            if (c.atWord("authorization")) throw Unsupported.named("SET SESSION AUTHORIZATION");
            if (c.acceptWords("characteristics", "as", "transaction")) {
                return transactionSetting(c, "default_", false);
            }
        }
        if (c.acceptWords("time", "zone")) return new Statement.SetVariable("timezone", timeZoneValue(c), local);
        if (c.atWord("transaction") && !isAssignment(c.peek(1))) {
            c.next();
            if (c.atWord("snapshot")) throw Unsupported.named("SET TRANSACTION SNAPSHOT");
            return transactionSetting(c, "", local);
        }
        if (c.atWord("names") && !isAssignment(c.peek(1))) {
            c.next();
            return new Statement.SetVariable("client_encoding", c.acceptWord("default") ? null : value(c), local);
        }
        if (c.atWord("schema") && !isAssignment(c.peek(1))) {
            c.next();
            Token t = c.peek();
            if (t.kind() != TokenKind.STRING) throw c.syntaxError();
            c.next();
            return new Statement.SetVariable("search_path", t.text(), local);
        }
        if (c.atWord("role") && !isAssignment(c.peek(1))) throw Unsupported.named("SET ROLE");
        String name = variableName(c);
        if (!c.acceptWord("to") && !c.acceptSymbol("=")) throw c.syntaxError();
        if (c.acceptWord("default")) return new Statement.SetVariable(name, null, local);
        List<String> values = new ArrayList<>();
        do {
            values.add(value(c));
        } while (c.acceptSymbol(","));
        return new Statement.SetVariable(name, String.join(", ", values), local);
    }

    private static boolean isAssignment(Token t) { return t.isWord("to") || t.isSymbol("="); }

    /** One transaction mode as a setting: {@code [default_]transaction_isolation} and friends. */
    private static Statement transactionSetting(TokenCursor c, String prefix, boolean local) {
        Statement.SetVariable setting;
        if (c.acceptWords("isolation", "level")) {
            setting = new Statement.SetVariable(prefix + "transaction_isolation", TransactionParser.isolationLevel(c), local);
        } else if (c.acceptWords("read", "only")) {
            setting = new Statement.SetVariable(prefix + "transaction_read_only", "on", local);
        } else if (c.acceptWords("read", "write")) {
            setting = new Statement.SetVariable(prefix + "transaction_read_only", "off", local);
        } else if (c.acceptWord("deferrable")) {
            setting = new Statement.SetVariable(prefix + "transaction_deferrable", "on", local);
        } else if (c.acceptWords("not", "deferrable")) {
            setting = new Statement.SetVariable(prefix + "transaction_deferrable", "off", local);
        } else {
            throw c.syntaxError();
        }
        if (c.atSymbol(",") || TransactionParser.startsTransactionMode(c)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "setting more than one transaction mode in one statement is not supported");
        }
        return setting;
    }

    /** {@code SET TIME ZONE}: a string, identifier or signed number; LOCAL and DEFAULT mean the default. */
    private static String timeZoneValue(TokenCursor c) {
        if (c.acceptWord("local") || c.acceptWord("default")) return null;
        if (c.atWord("interval")) throw Unsupported.named("SET TIME ZONE INTERVAL");
        return value(c);
    }

    /**
     * A setting value as PostgreSQL's grammar passes it on: a string's content, a number
     * as written (with its sign), an identifier case-folded, TRUE/FALSE/ON lower case.
     */
    static String value(TokenCursor c) {
        Token t = c.peek();
        String sign = "";
        if (t.isSymbol("-") || t.isSymbol("+")) {
            Token n = c.peek(1);
            if (n.kind() != TokenKind.INTEGER && n.kind() != TokenKind.DECIMAL) throw SqlSyntaxException.at(n);
            c.next();
            sign = t.text().equals("-") ? "-" : "";
            t = c.peek();
        }
        switch (t.kind()) {
            case INTEGER, DECIMAL -> {
                c.next();
                return sign + t.text();
            }
            case STRING, IDENTIFIER, QUOTED_IDENTIFIER -> {
                c.next();
                return t.text();
            }
            case KEYWORD -> {
                if (t.text().equals("true") || t.text().equals("false") || t.text().equals("on")) {
                    c.next();
                    return t.text();
                }
                throw c.syntaxError();
            }
            default -> throw c.syntaxError();
        }
    }

    /** A dotted setting name, lower-cased (setting names are case-insensitive). */
    private static String variableName(TokenCursor c) {
        StringBuilder name = new StringBuilder(c.name());
        while (c.acceptSymbol(".")) name.append('.').append(c.name());
        return name.toString().toLowerCase(Locale.ROOT);
    }

    static Statement reset(TokenCursor c) {
        c.next(); // RESET
        return new Statement.ResetVariable(settingName(c, "RESET"));
    }

    static Statement show(TokenCursor c) {
        c.next(); // SHOW
        boolean alone = c.peek(1).kind() == TokenKind.EOF || c.peek(1).isSymbol(";");
        if (alone && c.acceptWord("clusters")) return new Statement.ShowClusters(false);
        if (c.atWords("cluster", "replicas") && (c.peek(2).kind() == TokenKind.EOF || c.peek(2).isSymbol(";"))) {
            c.next();
            c.next();
            return new Statement.ShowClusters(true);
        }
        if (alone && c.acceptWord("tables")) return new Statement.ShowObjects(ObjectKind.TABLE);
        if (alone && c.acceptWord("views")) return new Statement.ShowObjects(ObjectKind.VIEW);
        if (c.atWords("materialized", "views")) {
            c.next();
            c.next();
            String cluster = c.acceptWords("in", "cluster") ? c.clusterName() : null;
            return new Statement.ShowObjects(ObjectKind.MATERIALIZED_VIEW, null, cluster);
        }
        if (c.atWord("indexes") && (alone || c.peek(1).isWord("on") || c.peek(1).isWord("in"))) {
            c.next();
            String on = c.acceptWord("on") ? c.tableName() : null;
            String cluster = c.acceptWords("in", "cluster") ? c.clusterName() : null;
            return new Statement.ShowObjects(ObjectKind.INDEX, on, cluster);
        }
        return new Statement.ShowVariable(settingName(c, "SHOW"));
    }

    /** The setting named after RESET or SHOW: {@code all}, {@code time zone}, {@code transaction isolation level}, or a name. */
    private static String settingName(TokenCursor c, String verb) {
        if (c.acceptWord("all")) return "all";
        if (c.acceptWords("time", "zone")) return "timezone";
        if (c.acceptWords("transaction", "isolation", "level")) return "transaction_isolation";
        if (c.acceptWords("session", "authorization")) {
            if (verb.equals("SHOW")) return "session_authorization";
            throw Unsupported.named("RESET SESSION AUTHORIZATION");
        }
        return variableName(c);
    }

    /**
     * {@code ALTER SYSTEM SET name {TO|=} value|DEFAULT} and {@code ALTER SYSTEM RESET
     * name|ALL}, the cursor at SYSTEM. SET ... DEFAULT is a RESET, as in PostgreSQL. Names
     * are lower-cased; the value is read like a SET value.
     */
    static Statement alterSystem(TokenCursor c) {
        c.next(); // SYSTEM
        if (c.acceptWord("set")) {
            String name = variableName(c);
            if (!c.acceptWord("to") && !c.acceptSymbol("=")) throw c.syntaxError();
            if (c.acceptWord("default")) return new Statement.AlterSystemReset(name);
            return new Statement.AlterSystemSet(name, value(c));
        }
        if (c.acceptWord("reset")) {
            if (c.acceptWord("all")) return new Statement.AlterSystemReset("all");
            return new Statement.AlterSystemReset(variableName(c));
        }
        throw c.syntaxError();
    }
}
