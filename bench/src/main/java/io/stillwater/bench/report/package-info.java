/**
 * The reports of both benchmarks: shared building blocks ({@code Html} page, {@code SvgChart},
 * {@code JsonTree}, {@code JunitXml}, {@code Format}, {@code ProgressBar}, {@code ReportFiles}
 * with each benchmark's file names) and per benchmark one model of what its report contains
 * ({@code BenchReport}, {@code FeatureReport}) with its HTML, JSON, JUnit and terminal
 * renderings.
 *
 * <p>Allowed dependencies inside the bench: {@code history}, {@code gate}, {@code stats}, {@code
 * load}, {@code runner} (results), the feature bench's results ({@code feature.run}, {@code
 * feature.compare}, {@code feature.measure}, {@code feature.scenario}); never {@code cli} or
 * {@code feature.cli}. The bench's packages form a DAG.
 */
package io.stillwater.bench.report;
