package steward.recall.gate;

import java.util.List;
import steward.meta.Metadata;

/** The hard gates, in the order they are applied. */
public final class Gates {
    private Gates() {}

    public static final List<Gate> ALL = Metadata.validated(
            "recall gates",
            List.of(new OwnSessionGate(), new CooldownGate(), new HarmfulGate(), new SecretGate(), new RemovedGate()));
}
