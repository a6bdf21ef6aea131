package steward.memory.precheck;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Declarative metadata of one pre-write check: its id, the verdict it calls for when it fails, and why. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CheckMeta {
    String id();

    /** The verdict a failed check calls for ("" for a check that only warns or asks). */
    String verdict();

    String summary();

    String rationale();
}
