package io.stillwater.engine.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.compute.MaintenanceBacklog;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The admission gate alone, over a backlog the test sets: when it waits, in which order it admits, how waits end. */
class WriteAdmissionTest {
    private final AtomicLong boundMs = new AtomicLong(100);
    private final AtomicReference<MaintenanceBacklog.Status> backlog = new AtomicReference<>(MaintenanceBacklog.Status.NONE);
    private final WriteAdmission gate = new WriteAdmission(boundMs::get, backlog::get);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private void backlogOf(long ageMs, long queued, long perWriteMs) {
        backlog.set(new MaintenanceBacklog.Status(TimeUnit.MILLISECONDS.toNanos(ageMs), queued,
                queued * TimeUnit.MILLISECONDS.toNanos(perWriteMs), TimeUnit.MILLISECONDS.toNanos(perWriteMs), 0));
        gate.progressed();
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("gave up waiting for: " + what);
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void underTheBoundWritesGoStraightThroughAndCountAsInFlightUntilClosed() {
        backlogOf(10, 1, 10);
        try (WriteAdmission.Ticket t = gate.admit(Cancellation.NONE, 0)) {
            assertThat(t.place()).isZero();
            assertThat(gate.inFlight()).isEqualTo(1);
        }
        assertThat(gate.inFlight()).isZero();
        assertThat(gate.admittedAfterWait()).isZero();
    }

    @Test
    void admittedWritesCountAsQueuedWorkSoAdmissionsStopAtTheBound() throws Exception {
        backlogOf(0, 5, 10); // 50 ms queued
        List<WriteAdmission.Ticket> held = new ArrayList<>();
        // Each sees the queue plus the writes admitted before it: 50, 60, 70, 80, 90 ms < 100.
        for (int i = 0; i < 5; i++) held.add(gate.admit(Cancellation.NONE, 0));
        Future<WriteAdmission.Ticket> sixth = pool.submit(() -> gate.admit(Cancellation.NONE, 0)); // 100 ms: at the bound
        await("the sixth write to wait", () -> gate.waiting() == 1);
        assertThat(sixth).isNotDone();
        held.remove(0).close(); // handed over and, say, processed with one other: 4 queued + 4 in flight = 80 ms
        backlogOf(0, 4, 10);
        assertThat(sixth.get(60, TimeUnit.SECONDS).place()).isEqualTo(1);
        held.forEach(WriteAdmission.Ticket::close);
    }

    @Test
    void waitingWritersAreAdmittedInArrivalOrder() throws Exception {
        backlogOf(500, 50, 10);
        List<Future<Long>> writers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            writers.add(pool.submit(() -> {
                try (WriteAdmission.Ticket t = gate.admit(Cancellation.NONE, 0)) {
                    return t.place();
                }
            }));
            int queued = i + 1;
            await("writer " + queued + " to queue", () -> gate.waiting() == queued);
        }
        backlogOf(0, 0, 10);
        List<Long> places = new ArrayList<>();
        for (Future<Long> f : writers) places.add(f.get(60, TimeUnit.SECONDS));
        assertThat(places).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aNewcomerDoesNotOvertakeAWaitingWriter() throws Exception {
        backlogOf(500, 50, 10);
        Future<Long> first = pool.submit(() -> gate.admit(Cancellation.NONE, 0).place());
        await("the first writer to queue", () -> gate.waiting() == 1);
        Future<Long> second = pool.submit(() -> gate.admit(Cancellation.NONE, 0).place());
        await("the second writer to queue", () -> gate.waiting() == 2);
        backlogOf(0, 0, 0);
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(second.get(60, TimeUnit.SECONDS)).isEqualTo(2);
    }

    @Test
    void theDeadlineEndsAWaitWith57014AndFreesTheQueue() {
        backlogOf(500, 50, 10);
        assertThatThrownBy(() -> gate.admit(Cancellation.NONE, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50)))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED);
                    assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
                });
        assertThat(gate.waiting()).isZero();
        assertThat(gate.inFlight()).isZero();
        backlogOf(0, 0, 0);
        gate.admit(Cancellation.NONE, 0).close();
    }

    @Test
    void aCancelRequestEndsAWaitWithItsOwnMessage() throws Exception {
        backlogOf(500, 50, 10);
        AtomicBoolean cancelled = new AtomicBoolean();
        Cancellation cancel = () -> {
            if (cancelled.get()) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        };
        Future<?> waiting = pool.submit(() -> gate.admit(cancel, 0));
        await("the writer to queue", () -> gate.waiting() == 1);
        cancelled.set(true);
        assertThatThrownBy(() -> waiting.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(SqlException.class)
                .cause().hasMessage("canceling statement due to user request");
        assertThat(gate.waiting()).isZero();
        assertThat(gate.inFlight()).isZero();
    }

    @Test
    void aBoundOfZeroAdmitsEverythingAndLoweringTheBoundAppliesAtOnce() throws Exception {
        boundMs.set(0);
        backlogOf(60_000, 10_000, 10);
        gate.admit(Cancellation.NONE, 0).close();
        boundMs.set(100);
        Future<Long> w = pool.submit(() -> gate.admit(Cancellation.NONE, 0).place());
        await("the writer to queue", () -> gate.waiting() == 1);
        boundMs.set(0);
        gate.progressed(); // what ALTER SYSTEM does
        assertThat(w.get(60, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void whileTheCostPerWriteIsUnknownQueuedWritesHoldAdmissionBack() throws Exception {
        backlog.set(new MaintenanceBacklog.Status(0, 3, 0, 0, 0)); // handed over, none processed yet
        Future<Long> w = pool.submit(() -> gate.admit(Cancellation.NONE, 0).place());
        await("the writer to queue", () -> gate.waiting() == 1);
        backlogOf(0, 2, 1); // one processed: its cost is known, 2 ms queued
        assertThat(w.get(60, TimeUnit.SECONDS)).isEqualTo(1);
    }
}
