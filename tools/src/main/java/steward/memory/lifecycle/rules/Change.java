package steward.memory.lifecycle.rules;

/** What a rule decided for one entry: the action, the level before and after, and why (English and Chinese). */
public record Change(String rule, String action, double from, double to, String en, String zh) {}
