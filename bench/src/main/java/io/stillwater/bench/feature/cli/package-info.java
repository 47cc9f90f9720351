/**
 * The feature bench's command ({@code stillwater feature-bench}): options, listing, the run, and
 * what is done with its results ({@code FeatureResults}); shares its flow with the parallel
 * command ({@code cli.CommandFlow}, {@code cli.SideOptions}, {@code cli.Shard}).
 *
 * <p>Allowed dependencies inside the bench: every {@code feature} package, {@code cli}, {@code
 * history}, {@code report}, {@code runner}, {@code targets}; nothing depends on it. The bench's
 * packages form a DAG.
 */
package io.stillwater.bench.feature.cli;
