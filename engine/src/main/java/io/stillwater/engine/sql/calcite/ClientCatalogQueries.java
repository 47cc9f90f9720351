package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fragments of the catalog queries that psql 15 and pgjdbc send, spelled with features
 * Stillwater's SQL lacks (arrays of a catalog column, {@code information_schema._pg_expandarray},
 * {@code current_schemas(...)[n]}, a window function over pg_attribute), replaced by
 * equivalents over Stillwater's catalog that give the same columns and rows.
 *
 * <p>Decision: a text rewrite of known client queries, not general support: each
 * replacement is exact for Stillwater's catalog (e.g. {@code pg_policy} has no rows, so
 * the role list of a policy is never computed; no table has dropped columns, so
 * {@code row_number() OVER (PARTITION BY attrelid ORDER BY attnum)} is {@code attnum}).
 * A fragment is matched with any whitespace between its tokens and in any letter case;
 * a query without one is untouched. Stateless.
 */
final class ClientCatalogQueries {
    private ClientCatalogQueries() {}

    private record Replacement(Pattern pattern, String with) {}

    private static final List<Replacement> REPLACEMENTS = new ArrayList<>();

    private static void replace(String fragment, String with) {
        REPLACEMENTS.add(new Replacement(fragment(fragment), Matcher.quoteReplacement(with)));
    }

    /** {@code fragment} as a pattern: its tokens in order, any whitespace between them. */
    private static Pattern fragment(String fragment) {
        StringBuilder re = new StringBuilder();
        for (String part : fragment.strip().split("\\s+")) {
            if (!re.isEmpty()) re.append("\\s*");
            // Also allow whitespace between punctuation inside a part: ( select vs (select
            StringBuilder p = new StringBuilder();
            for (int i = 0; i < part.length(); i++) {
                char ch = part.charAt(i);
                if (i > 0 && (!Character.isLetterOrDigit(ch) || !Character.isLetterOrDigit(part.charAt(i - 1)))) {
                    p.append("\\s*");
                }
                p.append(Pattern.quote(String.valueOf(ch)));
            }
            re.append(p);
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }

    static {
        // psql \d: a policy's roles (pg_policy has no rows).
        replace("pg_catalog.array_to_string(array(select rolname from pg_catalog.pg_roles where oid = any (pol.polroles) "
                + "order by 1),',')", "CAST(NULL AS text)");
        // psql \d: extended statistics kinds (pg_statistic_ext has no rows).
        for (String kind : List.of("d", "f", "m", "e")) replace("'" + kind + "' = any(stxkind)", "false");
        // psql \d: a publication's column list (pg_publication_rel has no rows).
        REPLACEMENTS.add(new Replacement(Pattern.compile(
                "\\(\\s*CASE\\s+WHEN\\s+pr\\.prattrs\\s+IS\\s+NOT\\s+NULL\\s+THEN.*?ELSE\\s+NULL\\s+END\\s*\\)",
                Pattern.CASE_INSENSITIVE | Pattern.DOTALL), "CAST(NULL AS text)"));
        // psql \d+: storage options (none).
        replace("pg_catalog.array_to_string(c.reloptions || array(select 'toast.' || x from pg_catalog.unnest(tc.reloptions) x), ', ')",
                "COALESCE(c.reloptions, '')");
        // psql \l, \dn+, ...: access privileges (no ACLs: those ACL columns are NULL text). Not
        // pg_class.relacl: a text[] of the grants, which \dp joins with array_to_string as in PostgreSQL.
        REPLACEMENTS.add(new Replacement(Pattern.compile(
                "pg_catalog\\.array_to_string\\(\\s*(\\w+\\.(?!relacl)\\w*acl)\\s*,\\s*E'\\\\n'\\s*\\)", Pattern.CASE_INSENSITIVE), "$1"));
        // psql \dp: column privileges (no ACLs) and policies (none): empty lists.
        REPLACEMENTS.add(new Replacement(Pattern.compile(
                "pg_catalog\\.array_to_string\\(\\s*ARRAY\\(\\s*SELECT\\s+attname\\s.*?attacl\\s+IS\\s+NOT\\s+NULL\\s*\\)\\s*,\\s*E'\\\\n'\\s*\\)",
                Pattern.CASE_INSENSITIVE | Pattern.DOTALL), "''"));
        REPLACEMENTS.add(new Replacement(Pattern.compile(
                "pg_catalog\\.array_to_string\\(\\s*ARRAY\\(\\s*SELECT\\s+polname\\s.*?FROM\\s+pg_catalog\\.pg_policy\\s+pol\\s+"
                        + "WHERE\\s+polrelid\\s*=\\s*c\\.oid\\s*\\)\\s*,\\s*E'\\\\n'\\s*\\)",
                Pattern.CASE_INSENSITIVE | Pattern.DOTALL), "''"));
        // psql \du: role memberships (pg_auth_members has no rows).
        replace("ARRAY(SELECT b.rolname FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles b ON (m.roleid = b.oid) "
                + "WHERE m.member = r.oid) as memberof", "CAST('{}' AS text) as memberof");
        // pgjdbc getSchemas: the session's temporary schema is first in the path (there is none).
        replace("(pg_catalog.current_schemas(true))[1]", "'pg_catalog'");
        // pgjdbc getTypeInfo: the search path (public, pg_catalog implicit) with positions.
        replace("( select s.r, (current_schemas(false))[s.r] as nspname from generate_series(1, "
                + "array_upper(current_schemas(false), 1)) as s(r) )", "( select 1 as r, 'public' as nspname )");
        // pgjdbc getColumns: attnum counts columns without gaps (no column is ever dropped).
        replace("row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum", "a.attnum AS attnum");
        // pgjdbc getPrimaryKeys: one row per key column, from the constraint's key columns.
        replace("(information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ", "k.n AS KEY_SEQ");
        replace("information_schema._pg_expandarray(con.conkey) AS KEYS", "k.x AS KEYS");
        replace("FROM pg_catalog.pg_constraint con JOIN", "FROM pg_catalog.pg_constraint con "
                + "JOIN pg_catalog.stillwater_key_columns k ON (k.keyoid = con.oid) JOIN");
        replace("result.A_ATTNUM = (result.KEYS).x", "result.A_ATTNUM = result.KEYS");
        // pgjdbc getIndexInfo: one row per index column; no descending columns.
        replace("(information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION", "k.n AS ORDINAL_POSITION");
        replace("JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid)", "JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid) "
                + "JOIN pg_catalog.stillwater_key_columns k ON (k.keyoid = i.indexrelid)");
        replace("tmp.I_INDOPTION[tmp.ORDINAL_POSITION - 1] & 1::smallint", "0");
    }

    /** {@code sql} with every known client fragment replaced; {@code sql} itself when it has none. */
    static String rewrite(String sql) {
        // Cheap filter: every fragment mentions one of these words.
        String lower = sql.toLowerCase(java.util.Locale.ROOT);
        if (!lower.contains("pg_") && !lower.contains("current_schemas") && !lower.contains("row_number")) return sql;
        String out = sql;
        for (Replacement r : REPLACEMENTS) out = r.pattern().matcher(out).replaceAll(r.with());
        return out;
    }
}
