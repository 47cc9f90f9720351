/**
 * The catalog: pure schema. {@link io.stillwater.engine.catalog.Catalog} is an immutable
 * snapshot of the tables, views, materialized views, indexes and clusters (with their
 * replicas) by name, published by the coordinator; {@link
 * io.stillwater.engine.catalog.CatalogView} is what the SQL front end may see of it;
 * {@link io.stillwater.engine.catalog.ObjectKind} names the kinds of relations; {@link
 * io.stillwater.engine.catalog.ViewRules} holds the dependency rules of DROP and CREATE OR
 * REPLACE. The {@code *Codec} classes give each definition its durable form in the log
 * ({@link io.stillwater.engine.catalog.TableCodec} for the log's CreateTable record, the
 * others for CatalogEntry payloads).
 *
 * <p>Dependencies: types, data, error, and storage (only for its binary reader/writer and
 * record types, to encode definitions). Nothing that computes, sequences or serves: the
 * contents of the built-in relations belong to the coordinator side, which reads the
 * catalog, never the reverse.
 */
package io.stillwater.engine.catalog;
