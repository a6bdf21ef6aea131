package steward.server.tools;

/** The argument record of a tool that takes no arguments. */
public record NoArguments() {}
