package steward.text;

/** Numbers as a person reads them in a report: a whole number without its ".0", any other as Java prints it. */
public final class Numbers {
    private Numbers() {}

    public static String plain(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }
}
