package steward.config;

/** Where a resolved setting came from, so that {@code steward_status} can say it. */
public enum Origin {
    FLAG,
    ENVIRONMENT,
    DEFAULT,
    DERIVED,
    CONFIG_FILE
}
