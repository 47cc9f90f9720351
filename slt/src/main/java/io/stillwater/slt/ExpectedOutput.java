package io.stillwater.slt;

import java.util.List;

/** The expected result of a query: the values themselves, or their count and MD5. */
public sealed interface ExpectedOutput {
    /** Values after sorting, in the order they must match. */
    record Values(List<String> values) implements ExpectedOutput {
        public Values {
            values = List.copyOf(values);
        }
    }

    /** {@code N values hashing to <md5>}. */
    record Hashed(int count, String md5) implements ExpectedOutput {}
}
