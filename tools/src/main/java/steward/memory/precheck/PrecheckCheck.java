package steward.memory.precheck;

/** One pre-write check of the seed's checklist. */
public interface PrecheckCheck {
    Outcome evaluate(PrecheckInput in);

    default CheckMeta meta() {
        CheckMeta m = getClass().getAnnotation(CheckMeta.class);
        if (m == null) throw new IllegalStateException(getClass().getName() + " lacks @CheckMeta");
        return m;
    }

    default String id() {
        return meta().id();
    }
}
