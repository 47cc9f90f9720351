/**
 * The parallel bench's command ({@code stillwater bench}): options, scenario selection and
 * shards, the session that runs the selected scenarios in a mode (compare, calibrate, compare to
 * history), and {@code CommandFlow}, the flow both bench commands share (usage errors, side
 * checks, history, report files).
 *
 * <p>Allowed dependencies inside the bench: everything below it: {@code runner}, {@code scenario},
 * {@code scenarios}, {@code history}, {@code report}, {@code targets}, {@code gate}, {@code
 * action}; nothing depends on it but {@code feature.cli}. The bench's packages form a DAG.
 */
package io.stillwater.bench.cli;
