package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TypeNamesTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            boolean                      | boolean
            BOOL                         | boolean
            smallint                     | smallint
            int2                         | smallint
            integer                      | integer
            INT                          | integer
            int4                         | integer
            "int4"                       | integer
            bigint                       | bigint
            int8                         | bigint
            real                         | real
            float4                       | real
            float(24)                    | real
            double precision             | double precision
            DOUBLE  PRECISION            | double precision
            float8                       | double precision
            float                        | double precision
            float(25)                    | double precision
            float(53)                    | double precision
            numeric                      | numeric
            decimal                      | numeric
            numeric(10,2)                | numeric(10,2)
            DECIMAL(5)                   | numeric(5,0)
            dec(7, 7)                    | numeric(7,7)
            text                         | text
            TEXT                         | text
            varchar                      | character varying
            VARCHAR(30)                  | character varying(30)
            character varying(5)         | character varying(5)
            char varying(5)              | character varying(5)
            char                         | character(1)
            character(3)                 | character(3)
            CHAR(10)                     | character(10)
            bpchar(2)                    | character(2)
            bpchar                       | character
            date                         | date
            time                         | time without time zone
            time without time zone       | time without time zone
            timestamp                    | timestamp without time zone
            timestamp(6)                 | timestamp without time zone
            timestamp without time zone  | timestamp without time zone
            timestamp with time zone     | timestamp with time zone
            timestamptz                  | timestamp with time zone
            interval                     | interval
            bytea                        | bytea
            """)
    void parsesPostgresSpellings(String name, String display) {
        assertThat(TypeNames.parse(name).displayName()).isEqualTo(display);
    }

    @Test
    void modifiersLandInTheType() {
        assertThat(TypeNames.parse("numeric(10,2)")).isEqualTo(SqlType.numeric(10, 2));
        assertThat(TypeNames.parse("varchar(16)")).isEqualTo(SqlType.varchar(16));
        assertThat(TypeNames.parse("char(4)")).isEqualTo(SqlType.character(4));
        assertThat(TypeNames.parse("bpchar")).isEqualTo(SqlType.of(TypeKind.CHAR));
        assertThat(TypeNames.parse("numeric")).isEqualTo(SqlType.NUMERIC);
    }

    @Test
    void arrayTypes() {
        assertThat(TypeNames.parse("int[]")).isEqualTo(SqlType.arrayOf(SqlType.INTEGER));
        assertThat(TypeNames.parse("text[][]")).isEqualTo(SqlType.arrayOf(SqlType.TEXT));
        assertThat(TypeNames.parse("varchar(5)[3]")).isEqualTo(SqlType.arrayOf(SqlType.varchar(5)));
        assertThat(TypeNames.parse("integer array")).isEqualTo(SqlType.arrayOf(SqlType.INTEGER));
        assertThat(TypeNames.parse("numeric(10,2) ARRAY[4]")).isEqualTo(SqlType.arrayOf(SqlType.numeric(10, 2)));
        assertThat(SqlType.arrayOf(SqlType.INTEGER).oid()).isEqualTo(1007);
        assertThat(SqlType.arrayOf(SqlType.TEXT).oid()).isEqualTo(1009);
        assertThat(SqlType.arrayOf(SqlType.BIGINT).displayName()).isEqualTo("bigint[]");
    }

    @Test
    void unknownTypes() {
        assertSqlError(() -> TypeNames.parse("foo"), SqlState.UNDEFINED_OBJECT, "type \"foo\" does not exist");
        assertSqlError(() -> TypeNames.parse("Foo(3)"), SqlState.UNDEFINED_OBJECT, "type \"foo\" does not exist");
        assertSqlError(() -> TypeNames.parse("\"Int4\""), SqlState.UNDEFINED_OBJECT, "type \"Int4\" does not exist");
        assertSqlError(() -> TypeNames.parse("json"), SqlState.FEATURE_NOT_SUPPORTED, "type \"json\" is not supported");
        assertThat(TypeNames.parse("jsonb")).isEqualTo(SqlType.JSONB);
        assertSqlError(() -> TypeNames.parse("serial"), SqlState.FEATURE_NOT_SUPPORTED, "type \"serial\" is not supported");
        assertSqlError(() -> TypeNames.parse("time with time zone"), SqlState.FEATURE_NOT_SUPPORTED,
                "type \"time with time zone\" is not supported");
    }

    @Test
    void modifierRanges() {
        assertSqlError(() -> TypeNames.parse("numeric(0)"), SqlState.INVALID_PARAMETER_VALUE,
                "NUMERIC precision 0 must be between 1 and 1000");
        assertSqlError(() -> TypeNames.parse("numeric(1001, 2)"), SqlState.INVALID_PARAMETER_VALUE,
                "NUMERIC precision 1001 must be between 1 and 1000");
        assertSqlError(() -> TypeNames.parse("numeric(3,5)"), SqlState.INVALID_PARAMETER_VALUE,
                "NUMERIC scale 5 must be between 0 and precision 3");
        assertSqlError(() -> TypeNames.parse("numeric(3,1,1)"), SqlState.INVALID_PARAMETER_VALUE,
                "invalid NUMERIC type modifier");
        assertSqlError(() -> TypeNames.parse("varchar(0)"), SqlState.INVALID_PARAMETER_VALUE,
                "length for type varchar must be at least 1");
        assertSqlError(() -> TypeNames.parse("varchar(10485761)"), SqlState.INVALID_PARAMETER_VALUE,
                "length for type varchar cannot exceed 10485760");
        assertSqlError(() -> TypeNames.parse("char(0)"), SqlState.INVALID_PARAMETER_VALUE,
                "length for type char must be at least 1");
        assertSqlError(() -> TypeNames.parse("float(0)"), SqlState.INVALID_PARAMETER_VALUE,
                "precision for type float must be at least 1 bit");
        assertSqlError(() -> TypeNames.parse("float(54)"), SqlState.INVALID_PARAMETER_VALUE,
                "precision for type float must be less than 54 bits");
        assertSqlError(() -> TypeNames.parse("timestamp(3)"), SqlState.FEATURE_NOT_SUPPORTED,
                "TIMESTAMP(3) is not supported: only microsecond precision (6) is");
    }

    @Test
    void syntaxErrors() {
        assertSqlError(() -> TypeNames.parse("double"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        assertSqlError(() -> TypeNames.parse("varchar(x)"), SqlState.SYNTAX_ERROR, "syntax error at or near \"x\"");
        assertSqlError(() -> TypeNames.parse("integer integer"), SqlState.SYNTAX_ERROR,
                "syntax error at or near \"integer\"");
        assertSqlError(() -> TypeNames.parse("varchar(3"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        assertSqlError(() -> TypeNames.parse(""), SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
}
