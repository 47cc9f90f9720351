package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.TableCodec;
import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterCodec;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.IndexCodec;
import io.stillwater.engine.catalog.MaterializedViewCodec;
import io.stillwater.engine.catalog.ObjectAclCodec;
import io.stillwater.engine.catalog.RoleCodec;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.catalog.ViewCodec;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.SystemParameterCodec;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.table.Table;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the log's records build in memory: the catalog, the clusters, the tables and the
 * system parameters; and how one durable record changes them ({@link #prepare}), which
 * the {@link WritePipeline} calls in timestamp order and {@link Recovery} at replay.
 *
 * <p>Threading: every change happens in a published record, under the pipeline's apply
 * lock. The catalog and clusters are immutable values published through volatile
 * fields and tables sit in a concurrent map, so any thread reads them without a lock
 * (and sees a state some prefix of the log produced). The system parameters are
 * thread-safe themselves ({@link SystemParameters}).
 */
final class AppliedState implements WritePipeline.Applier {
    private static final Logger LOG = LoggerFactory.getLogger(AppliedState.class);

    private final Map<Long, Table> tables = new ConcurrentHashMap<>();
    /**
     * The time of the last applied write (or the creation) of each table: what a
     * transaction's commit validates its reads against ({@link TableWriter#commitIfUnchanged}).
     * Written when a record is published (apply lock); read under the write lock.
     */
    private final Map<Long, Long> lastWritten = new ConcurrentHashMap<>();
    private volatile Catalog catalog = Catalog.empty();
    /** The clusters and their replicas (catalog); published like {@code catalog}. */
    private volatile Clusters clusters = Clusters.empty();
    /** Roles, owners and grants (see {@link SecurityCatalog}); published like {@code catalog}. */
    private volatile SecurityCatalog security = SecurityCatalog.empty();
    /**
     * This process's startup defaults plus the ALTER SYSTEM overrides from the log; changed
     * only in a published record.
     */
    private final SystemParameters systemParameters;
    /** Every applied write and frontier advance goes to every running replica. */
    private final Replicas replicas;
    /** Told after an ALTER SYSTEM record applied (max_maintenance_lag may have changed). */
    private final Runnable parametersChanged;
    /** True while the log is replayed: compute is not fed then (dataflows are built after replay). Apply lock. */
    private boolean replaying;
    /**
     * The catalog as the records that build it: the latest CreateTable of every table and
     * CatalogEntry of every (kind, name) that still exists, in the order they were last
     * applied (an object after what it depends on). What a checkpoint writes instead of
     * the log's history; kinds added later are checkpointed without code here. Apply lock.
     */
    private final CatalogRecords catalogRecords = new CatalogRecords();
    /** Told which tables each write changed, before the oracle moves to its time (StoredViews). Apply lock. */
    private BiConsumer<Set<Long>, Long> tablesWritten = (ids, time) -> {};

    AppliedState(SystemParameters systemParameters, Replicas replicas, Runnable parametersChanged) {
        this.systemParameters = systemParameters;
        this.replicas = replicas;
        this.parametersChanged = parametersChanged;
    }

    Catalog catalog() { return catalog; }

    /** Sets who is told the tables each applied write changed (at open, before recovery). */
    void onTablesWritten(BiConsumer<Set<Long>, Long> listener) { tablesWritten = listener; }

    Clusters clusters() { return clusters; }

    SecurityCatalog security() { return security; }

    SystemParameters systemParameters() { return systemParameters; }

    Optional<Table> table(long id) { return Optional.ofNullable(tables.get(id)); }

    /** Whether {@code id} is a table now. */
    boolean isTable(long id) { return tables.containsKey(id); }

    Collection<Table> tables() { return tables.values(); }

    /** When table {@code id} last changed (written or created); {@code Long.MAX_VALUE} when it does not exist. */
    long lastWritten(long id) { return lastWritten.getOrDefault(id, Long.MAX_VALUE); }

    /** Marks the start or the end of replay. Apply lock. */
    void replaying(boolean replaying) { this.replaying = replaying; }

    /**
     * Prepares one durable record, at {@code time}, for catalog, tables and replicas
     * without changing any of them: the new catalog values and table batches are built
     * here; {@link WritePipeline.Prepared#publish} only installs them. Holds applyLock;
     * the caller publishes right away (nothing may change in between).
     */
    @Override
    public WritePipeline.Prepared prepare(LogRecord record, long time) {
        if (!replaying) FaultPoints.hit(FaultPoints.Point.APPLY);
        Runnable install = switch (record) {
            case LogRecord.CreateTable ct -> {
                TableDef def = TableCodec.decode(ct);
                Catalog next = catalog.withTable(def);
                Table table = new Table(def, time);
                yield () -> {
                    catalog = next;
                    tables.put(def.id(), table);
                    lastWritten.put(def.id(), time);
                };
            }
            case LogRecord.DropTable dt -> {
                Catalog next = catalog.withoutTable(dt.tableId());
                yield () -> {
                    catalog = next;
                    tables.remove(dt.tableId());
                    lastWritten.remove(dt.tableId());
                };
            }
            case LogRecord.TableWrite tw -> {
                Map<Long, Changes> byTable = new HashMap<>();
                for (TableChange ch : tw.changes()) {
                    byTable.computeIfAbsent(ch.tableId(), k -> new Changes()).add(ch.row(), ch.diff());
                }
                byTable.keySet().retainAll(tables.keySet());
                List<Table.Prepared> batches = new ArrayList<>(byTable.size());
                for (var e : byTable.entrySet()) batches.add(tables.get(e.getKey()).prepare(tw.time(), e.getValue()));
                yield () -> {
                    tablesWritten.accept(byTable.keySet(), tw.time());
                    for (Table.Prepared b : batches) b.publish();
                    for (long id : byTable.keySet()) lastWritten.put(id, tw.time());
                    if (!replaying) replicas.inputChanges(tw.time(), byTable);
                };
            }
            case LogRecord.CatalogEntry e when e.kind().equals(ViewCodec.KIND) ->
                    catalogChange(catalog.withView(ViewCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(ViewCodec.KIND) ->
                    catalogChange(catalog.withoutView(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(IndexCodec.KIND) ->
                    catalogChange(catalog.withIndex(IndexCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(IndexCodec.KIND) ->
                    catalogChange(catalog.withoutIndex(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(MaterializedViewCodec.KIND) ->
                    catalogChange(catalog.withMaterializedView(MaterializedViewCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(MaterializedViewCodec.KIND) ->
                    catalogChange(catalog.withoutMaterializedView(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(ClusterCodec.KIND) -> {
                Clusters next = clusters.with(ClusterCodec.decode(e.name(), e.payload()));
                yield () -> clusters = next;
            }
            case LogRecord.CatalogRemoval r when r.kind().equals(ClusterCodec.KIND) -> {
                Clusters next = clusters.without(r.name());
                yield () -> clusters = next;
            }
            case LogRecord.CatalogEntry e when e.kind().equals(RoleCodec.KIND) ->
                    securityChange(security.withRole(RoleCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(RoleCodec.KIND) -> securityChange(security.withoutRole(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(ObjectAclCodec.KIND) ->
                    securityChange(security.withAcl(e.name(), ObjectAclCodec.decode(e.name(), e.payload())));
            case LogRecord.CatalogRemoval r when r.kind().equals(ObjectAclCodec.KIND) -> securityChange(security.withoutAcl(r.name()));
            case LogRecord.CatalogEntry e when e.kind().equals(CheckpointFacts.KIND) -> {
                CheckpointFacts facts = CheckpointFacts.decode(e.payload());
                Catalog nextCatalog = facts.applyTo(catalog);
                Clusters nextClusters = facts.applyTo(clusters);
                yield () -> {
                    catalog = nextCatalog;
                    clusters = nextClusters;
                };
            }
            case LogRecord.CatalogEntry e when e.kind().equals(SystemParameterCodec.KIND) -> {
                String text = SystemParameterCodec.decode(e.name(), e.payload());
                yield () -> applySystemParameter(e.name(), text);
            }
            case LogRecord.CatalogRemoval r when r.kind().equals(SystemParameterCodec.KIND) ->
                    () -> applySystemParameter(r.name(), null);
            default -> throw new IllegalStateException("unexpected log record " + record);
        };
        return () -> {
            install.run();
            catalogRecords.applied(record);
            // Every table is complete through this time, written or not, so a read at it
            // (the read timestamp is the last applied record's) finds every input readable.
            for (Table t : tables.values()) t.advanceUpper(time + 1);
            if (!replaying && !(record instanceof LogRecord.TableWrite)) replicas.advanceTo(time + 1);
        };
    }

    /** The records that rebuild the catalog (see {@link CatalogRecords}), then the {@link CheckpointFacts}. Apply lock. */
    List<LogRecord> catalogRecords() {
        List<LogRecord> out = new ArrayList<>(catalogRecords.snapshot());
        out.add(CheckpointFacts.of(catalog, clusters).toRecord());
        return out;
    }

    /**
     * Recovery from a checkpoint: table {@code id}'s contents at {@code time}, written as
     * one batch (a table takes one batch per time). Apply lock, while replaying.
     */
    void loadCheckpointedContents(long id, long time, Changes contents) {
        Table t = tables.get(id);
        if (t == null) throw new IllegalStateException("checkpoint holds rows of table " + id + " but not the table");
        t.prepare(time, contents).publish();
        lastWritten.put(id, time);
    }

    /** An idle tick: every table and replica is complete through {@code time}. */
    @Override
    public void advanceIdle(long time) {
        for (Table t : tables.values()) t.advanceUpper(time + 1);
        replicas.advanceTo(time + 1);
    }

    private Runnable catalogChange(Catalog next) {
        return () -> catalog = next;
    }

    private Runnable securityChange(SecurityCatalog next) {
        // The catalog is republished (same contents, new identity) so plans cached against it
        // are dropped as after DDL: they embed answers from the role catalog (pg_get_userbyid,
        // has_table_privilege). Security is written first: a reader that sees the new catalog
        // sees the new roles.
        return () -> {
            security = next;
            Catalog c = catalog;
            catalog = new Catalog(c.tablesByName(), c.viewsByName(), c.materializedViewsByName(), c.indexesByName(),
                    c.nextId());
        };
    }

    /**
     * Applies a logged ALTER SYSTEM change ({@code text} null: RESET). A record this
     * version cannot apply (a parameter since removed, a value no longer valid) is
     * skipped with a warning rather than failing recovery: the parameter keeps its default.
     */
    private void applySystemParameter(String name, String text) {
        try {
            if (text == null) systemParameters.applyReset(name);
            else systemParameters.applyOverride(name, text);
        } catch (SqlException e) {
            LOG.warn("ignoring logged ALTER SYSTEM of {} = {}: {}", name, text, e.getMessage());
        }
        parametersChanged.run();
    }
}
