package steward.memory.precheck;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import steward.text.TitleAnalyzer;

/** Shared text cues of the checks: CJK-weighted length, time and cause markers, command tokens. */
final class Cues {
    private Cues() {}

    /** Code points with each CJK character counted twice (seed 002: Chinese carries about twice the information). */
    static int weightedLength(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            n += TitleAnalyzer.isCjk(cp) ? 2 : 1;
        }
        return n;
    }

    static final String MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
            + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
    static final String DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";

    /** A past moment: "yesterday", "last Friday", "on 3 May", "in June", "昨天", "上周", "8 月 3 日". */
    static final Pattern PAST_TIME =
            Pattern.compile("(?i)\\byesterday\\b|\\blast (?:week|month|night|year|sprint|" + DAYS + ")\\b"
                    + "|\\bon (?:\\d{1,2} (?:" + MONTHS + ")|(?:" + MONTHS + ") \\d{1,2}|" + DAYS + ")\\b|\\bin (?:"
                    + MONTHS + ")\\b"
                    + "|\\b\\d{1,2} (?:" + MONTHS + ")\\b|\\bthis morning\\b|\\bearlier today\\b"
                    + "|昨天|前天|昨晚|上周|上个月|上月|去年|今天早上|周[一二三四五六日]的|\\d+\\s*月\\s*\\d+\\s*[日号]|[一二三四五六七八九十\\d]+\\s*月的");

    /** A cause or a past remedy: "because", "due to", "rolled back", "因为", "导致", "回滚". */
    static final Pattern CAUSE =
            Pattern.compile("(?i)\\bbecause\\b|\\bsince the\\b|\\bdue to\\b|\\bcaused by\\b|\\bfrom a\\b"
                    + "|\\bwe (?:cleaned|restarted|rolled back|flushed|renewed|added|fixed|backfilled|reverted)\\b|\\brolled back\\b|\\breran\\b"
                    + "|\\brecovered\\b|\\bby hand\\b|因为|由于|原因|导致|造成|回滚|恢复|修好|处理了|补数据|之后加了|后来");

    static final Pattern COMMAND = Pattern.compile(
            "(?:^|\\s)(?:\\./[\\w./-]+|(?:sudo\\s+)?(?:kubectl|docker|podman|systemctl|journalctl|curl|wget|git"
                    + "|npm|pnpm|yarn|pip|uv|make|ssh|scp|rsync|restic|certbot|apt|apt-get|brew|helm|terraform|ansible-playbook|psql|pg_dump"
                    + "|mysql|redis-cli|aws|gcloud|az)\\s+[-\\w./:=]+)");

    static int count(Pattern p, String s) {
        Matcher m = p.matcher(s);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
