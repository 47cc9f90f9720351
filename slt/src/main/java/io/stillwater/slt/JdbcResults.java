package io.stillwater.slt;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a JDBC result set into column names and rows of plain Java values for
 * {@link ValueRenderer}. Values are taken from their text form (getString) and converted by the
 * column's PostgreSQL type name, so the extended and simple protocols give identical values.
 */
public record JdbcResults(List<String> columnNames, List<List<Object>> rows) {
    public static JdbcResults read(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String> names = new ArrayList<>(n);
        List<String> typeNames = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            names.add(md.getColumnLabel(i));
            typeNames.add(md.getColumnTypeName(i).toLowerCase(Locale.ROOT));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                row.add(convert(rs.getString(i), typeNames.get(i - 1)));
            }
            rows.add(row);
        }
        return new JdbcResults(names, rows);
    }

    /** Converts PostgreSQL text output of a column of the given type to a renderer value. */
    static Object convert(String text, String typeName) {
        if (text == null) {
            return null;
        }
        try {
            return switch (typeName) {
                case "int2", "int4", "int8", "oid", "smallint", "integer", "bigint", "serial", "bigserial",
                        "uint2", "uint4", "uint8", "regclass", "regproc", "regtype" -> parseIntegral(text);
                case "float4", "float8", "real", "double precision" -> parseFloat(text);
                case "numeric", "decimal" -> switch (text) {
                    case "NaN", "Infinity", "-Infinity" -> parseFloat(text);
                    default -> new BigDecimal(text);
                };
                case "bool", "boolean" -> switch (text) {
                    case "t", "true" -> Boolean.TRUE;
                    case "f", "false" -> Boolean.FALSE;
                    default -> text;
                };
                default -> text;
            };
        } catch (NumberFormatException e) {
            return text; // e.g. regclass printed as a name: keep the text
        }
    }

    private static Object parseIntegral(String text) {
        return Long.parseLong(text);
    }

    private static Double parseFloat(String text) {
        return switch (text) {
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
