package steward.memory.precheck;

/** One check's result: {@code pass}, {@code warn}, {@code fail} or {@code question}, with a detail for the agent. */
public record Outcome(String status, String detail) {
    public static Outcome pass(String d) {
        return new Outcome("pass", d);
    }

    public static Outcome fail(String d) {
        return new Outcome("fail", d);
    }

    public static Outcome warn(String d) {
        return new Outcome("warn", d);
    }

    public boolean failed() {
        return status.equals("fail");
    }
}
