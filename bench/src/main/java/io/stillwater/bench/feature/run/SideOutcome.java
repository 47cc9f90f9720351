package io.stillwater.bench.feature.run;

import java.util.List;

/** One side of one run of a scenario: measured, skipped (the target lacks something) or failed. */
public sealed interface SideOutcome permits SideOutcome.Measured, SideOutcome.Skipped, SideOutcome.Failed {
    String side();

    int runNumber();

    record Measured(SideRun run) implements SideOutcome {
        @Override
        public String side() {
            return run.side();
        }

        @Override
        public int runNumber() {
            return run.runNumber();
        }
    }

    /** @param reason e.g. "url:... cannot be restarted" or "the target lacks ARRANGEMENTS" */
    record Skipped(String side, int runNumber, String reason) implements SideOutcome {
    }

    /** @param error the failure's message, with the statement that failed and its SQLSTATE when there is one */
    record Failed(String side, int runNumber, String error, List<String> messages) implements SideOutcome {
        public Failed {
            messages = List.copyOf(messages);
        }
    }
}
