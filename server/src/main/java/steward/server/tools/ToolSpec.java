package steward.server.tools;

import java.util.Objects;

/**
 * What the model and the user see of one tool besides its schemas: name, title, description and hints. Declared
 * next to the tool's handler as one expression, for example
 * {@code ToolSpec.of("session_audit", "Audit Hermes sessions", "...").readOnly().idempotent()}; a hint not named
 * is false (see {@link ToolHints#NONE}).
 */
public record ToolSpec(String name, String title, String description, ToolHints hints) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(hints, "hints");
    }

    /**
     * @param name        {@code group_verb}, with a group prefix: {@code session_}, {@code memory_}, {@code recall_}, {@code steward_}
     * @param description written for the model: what it does, when to use it, what it refuses
     */
    public static ToolSpec of(String name, String title, String description) {
        return new ToolSpec(name, title, description, ToolHints.NONE);
    }

    /** It changes nothing the user owns. */
    public ToolSpec readOnly() {
        return new ToolSpec(
                name,
                title,
                description,
                new ToolHints(true, hints.destructive(), hints.idempotent(), hints.openWorld()));
    }

    /** It may delete or overwrite what the user has. */
    public ToolSpec destructive() {
        return new ToolSpec(
                name, title, description, new ToolHints(hints.readOnly(), true, hints.idempotent(), hints.openWorld()));
    }

    /** Calling it again with the same arguments has no further effect. */
    public ToolSpec idempotent() {
        return new ToolSpec(
                name,
                title,
                description,
                new ToolHints(hints.readOnly(), hints.destructive(), true, hints.openWorld()));
    }

    /** It reaches beyond this machine (the network, other services). */
    public ToolSpec openWorld() {
        return new ToolSpec(
                name,
                title,
                description,
                new ToolHints(hints.readOnly(), hints.destructive(), hints.idempotent(), true));
    }
}
