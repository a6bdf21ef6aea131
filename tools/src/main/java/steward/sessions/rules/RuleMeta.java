package steward.sessions.rules;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declarative metadata of one rule: a housekeeping rule, a learning rule or a recall gate (validated when each
 * registry is built, {@code steward.meta.Metadata}; README's rule tables are generated from it).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RuleMeta {
    String id();

    String summary();

    String rationale();

    /** The confidences of the verdicts the rule gives ("HIGH, MEDIUM"); "" where none applies (learning rules, gates). */
    String confidence() default "";

    /**
     * The config.yaml keys (or key prefixes) the rule's decision depends on. When one cannot be read (a malformed file, a
     * bad value: the user may have set it to keep more, or to turn the rule off), the rule's verdicts never run
     * automatically (rule S's cap).
     */
    String[] settings() default {};
}
