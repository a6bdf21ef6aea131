package steward.memory.lifecycle.rules;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Declarative metadata of one memory lifecycle rule (promotion, decay, supersede, prune). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface LifecycleMeta {
    String id();

    /** promote, decay, supersede or prune. */
    String kind();

    String summary();

    String rationale();
}
