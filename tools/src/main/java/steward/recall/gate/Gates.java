package steward.recall.gate;

import java.util.List;

/** The hard gates, in the order they are applied. */
public final class Gates {
    private Gates() {}

    public static final List<Gate> ALL =
            List.of(new OwnSessionGate(), new CooldownGate(), new HarmfulGate(), new SecretGate());
}
