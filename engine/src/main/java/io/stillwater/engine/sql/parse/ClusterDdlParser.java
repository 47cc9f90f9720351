package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Materialize's cluster DDL: CREATE / ALTER / DROP CLUSTER and CREATE / DROP CLUSTER
 * REPLICA, with their SIZE and REPLICATION FACTOR options. Part of {@link
 * UtilityParser}; stateless.
 */
final class ClusterDdlParser {
    private ClusterDdlParser() {}

    /**
     * {@code CREATE CLUSTER name (SIZE [=] 'size' [, REPLICATION FACTOR [=] n])} (managed;
     * the parentheses may be left out) or {@code CREATE CLUSTER name REPLICAS (r1 (SIZE
     * [=] 'size'), ...)} (unmanaged). The cursor is at CLUSTER.
     */
    static Statement createCluster(TokenCursor c) {
        c.next(); // CLUSTER
        String name = c.clusterName();
        if (c.acceptWord("replicas")) {
            c.expectSymbol("(");
            List<Statement.ReplicaOption> replicas = new ArrayList<>();
            if (!c.atSymbol(")")) {
                do {
                    String replica = c.name();
                    c.expectSymbol("(");
                    String size = null;
                    do {
                        if (!c.acceptWord("size")) throw unsupportedOption(c, "cluster replica");
                        c.acceptSymbol("=");
                        size = SettingParser.value(c);
                    } while (c.acceptSymbol(","));
                    c.expectSymbol(")");
                    replicas.add(new Statement.ReplicaOption(replica, size));
                } while (c.acceptSymbol(","));
            }
            c.expectSymbol(")");
            return new Statement.CreateCluster(name, false, null, 0, replicas);
        }
        ClusterOptions o = clusterOptions(c, "cluster");
        if (o.size == null) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "SIZE option is required for managed clusters", null,
                    "Write CREATE CLUSTER " + name + " (SIZE = 'scale=1,workers=1'), or list REPLICAS (...).");
        }
        return new Statement.CreateCluster(name, true, o.size, o.replicationFactor < 0 ? 1 : o.replicationFactor, List.of());
    }

    /** {@code ALTER CLUSTER name SET (SIZE = 'size', REPLICATION FACTOR = n)}; the cursor is at CLUSTER. */
    static Statement alterCluster(TokenCursor c) {
        c.next(); // CLUSTER
        String name = c.clusterName();
        if (c.atWord("reset") || c.atWord("rename") || c.atWord("swap") || c.atWord("owner")) {
            throw Unsupported.named("ALTER CLUSTER " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        c.expectWord("set");
        if (!c.atSymbol("(")) throw c.syntaxError();
        ClusterOptions o = clusterOptions(c, "cluster");
        return new Statement.AlterCluster(name, o.size, o.replicationFactor);
    }

    private static final class ClusterOptions {
        String size;
        int replicationFactor = -1;
    }

    /** Cluster options, in parentheses or bare: SIZE and REPLICATION FACTOR; others are 0A000. */
    private static ClusterOptions clusterOptions(TokenCursor c, String what) {
        ClusterOptions o = new ClusterOptions();
        boolean parens = c.acceptSymbol("(");
        if (!parens && c.peek().kind() == TokenKind.EOF) return o;
        do {
            if (c.acceptWord("size")) {
                c.acceptSymbol("=");
                o.size = SettingParser.value(c);
            } else if (c.acceptWords("replication", "factor")) {
                c.acceptSymbol("=");
                o.replicationFactor = c.smallInteger();
            } else {
                throw unsupportedOption(c, what);
            }
        } while (c.acceptSymbol(","));
        if (parens) c.expectSymbol(")");
        return o;
    }

    /** 0A000 for a Materialize option Stillwater does not have; 42601 for a word that is not an option. */
    private static SqlException unsupportedOption(TokenCursor c, String what) {
        Token t = c.peek();
        if (t.kind() != TokenKind.IDENTIFIER && t.kind() != TokenKind.KEYWORD) throw c.syntaxError();
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                what + " option " + t.text().toUpperCase(Locale.ROOT) + " is not supported", null,
                "Stillwater knows SIZE" + (what.equals("cluster") ? " and REPLICATION FACTOR." : "."));
    }

    /** {@code CREATE CLUSTER REPLICA cluster.replica [(] SIZE [=] 'size' [)]}; the cursor is at CLUSTER. */
    static Statement createClusterReplica(TokenCursor c) {
        c.next(); // CLUSTER
        c.next(); // REPLICA
        Statement.ReplicaName n = replicaName(c);
        ClusterOptions o = new ClusterOptions();
        boolean parens = c.acceptSymbol("(");
        do {
            if (!c.acceptWord("size")) throw unsupportedOption(c, "cluster replica");
            c.acceptSymbol("=");
            o.size = SettingParser.value(c);
        } while (c.acceptSymbol(","));
        if (parens) c.expectSymbol(")");
        return new Statement.CreateClusterReplica(n.cluster(), n.replica(), o.size);
    }

    private static Statement.ReplicaName replicaName(TokenCursor c) {
        String cluster = c.clusterName();
        c.expectSymbol(".");
        return new Statement.ReplicaName(cluster, c.name());
    }

    /** {@code DROP CLUSTER [REPLICA] [IF EXISTS] names [CASCADE | RESTRICT]}; the cursor is at CLUSTER. */
    static Statement dropCluster(TokenCursor c) {
        c.next(); // CLUSTER
        if (c.acceptWord("replica")) {
            boolean ifExists = c.acceptWords("if", "exists");
            List<Statement.ReplicaName> names = new ArrayList<>();
            do {
                names.add(replicaName(c));
            } while (c.acceptSymbol(","));
            if (!c.acceptWord("cascade")) c.acceptWord("restrict");
            return new Statement.DropClusterReplica(names, ifExists);
        }
        boolean ifExists = c.acceptWords("if", "exists");
        List<String> names = new ArrayList<>();
        do {
            names.add(c.clusterName());
        } while (c.acceptSymbol(","));
        boolean cascade = c.acceptWord("cascade");
        if (!cascade) c.acceptWord("restrict");
        return new Statement.DropCluster(names, ifExists, cascade);
    }
}
