package io.stillwater.bench.cli;

import io.stillwater.bench.targets.SideParams;
import io.stillwater.targets.TargetSpec;

/** One side of a bench run: where it runs and with which system parameter defaults. */
public record SideConfig(TargetSpec target, SideParams params) {
    @Override
    public String toString() {
        return target.display() + (params.isEmpty() ? "" : " with " + params.render());
    }
}
