package io.stillwater.bench.load;

/**
 * Opens an invoker before the phase starts (outside timing): once per open loop, once per worker
 * of a closed loop (so a reuse-connection closed loop of 10 has 10 connections).
 */
@FunctionalInterface
public interface InvokerFactory {
    Invoker open() throws Exception;
}
