package steward.config;

/** Where a resolved setting came from, so that {@code steward_status} can say it. */
public enum Origin {
    FLAG,
    ENVIRONMENT,
    DEFAULT,
    DERIVED,
    CONFIG_FILE,
    /** Steward's own {@code settings.json} in its state dir. */
    STEWARD_SETTINGS,
    /**
     * The file that holds the setting is there but cannot be read: the safe value is assumed (write approval on), since
     * the user may have set it.
     */
    UNREADABLE
}
