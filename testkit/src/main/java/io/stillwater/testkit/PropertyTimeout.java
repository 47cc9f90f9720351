package io.stillwater.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * The hang guard's limit for a jqwik {@code @Property}/{@code @Example} method, or for every
 * one of a class, instead of {@code junit.jupiter.execution.timeout.default}. jqwik refuses
 * JUnit's {@code @Timeout} on its methods; Jupiter tests use {@code @Timeout}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface PropertyTimeout {
    long value();

    TimeUnit unit() default TimeUnit.SECONDS;
}
