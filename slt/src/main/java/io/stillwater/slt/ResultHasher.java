package io.stillwater.slt;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The hash of {@code N values hashing to <md5>}: MD5 over every value (already sorted) followed
 * by a newline, in UTF-8, as lowercase hex. This is what SQLite's C runner and Materialize's
 * runner compute, so hashed results written by either match here.
 */
public final class ResultHasher {
    private ResultHasher() {}

    public static String md5(List<String> values) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
        for (String v : values) {
            md.update(v.getBytes(StandardCharsets.UTF_8));
            md.update((byte) '\n');
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
