package steward.sessions.grouping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import steward.claude.ClaudeHome;

class GroupingEngineTest {
    /** One session per line: {@code id | title or - | first prompt | cwd or -}. */
    static List<GroupingEngine.Candidate> sessions(String table) {
        List<GroupingEngine.Candidate> out = new ArrayList<>();
        int n = 0;
        for (String line : table.strip().split("\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) continue;
            String[] c = line.split("\\|", -1);
            for (int i = 0; i < c.length; i++) c[i] = c[i].strip();
            out.add(new GroupingEngine.Candidate(
                    c[0], c[1].equals("-") ? null : c[1], c[2], c[3].equals("-") ? null : c[3], 1000 - n++));
        }
        return out;
    }

    static final String HOME = """
            cc1  | Claude Code hooks setup     | How do I set up hooks in Claude Code?            | /home/u
            cc2  | Claude Code subagents       | Claude Code subagents: when to use them          | /home/u
            cc3  | Claude Code 模式            | Compare the four Claude Code modes               | /home/u
            cc4  | [Claude Code] plugins       | Which Claude Code plugins are worth it?          | /home/u
            b1   | Billing invoice split       | Refactor the billing invoice module              | /home/u/src/billing
            b2   | Billing refunds             | Add refund tests to the billing invoice module   | /home/u/src/billing/tests
            b3   | Billing invoice rounding    | Invoice totals round wrong in billing            | /home/u/src/billing
            t1   | B站搜索咨询                  | B站搜索怎么用高级筛选                              | /home/u
            t2   | B站搜索咨询 #2               | B站搜索结果怎么按时间排序                           | /home/u
            x1   | Sourdough starter           | My sourdough starter smells like acetone         | /home/u
            x2   | Tax return 2026             | What can I deduct on my tax return?              | /home/u
            """;

    static List<GroupingEngine.Cluster> group(String table, HermesProjects projects) {
        List<GroupingEngine.Candidate> c = sessions(table);
        Set<String> titles = new HashSet<>();
        for (GroupingEngine.Candidate x : c) if (x.title() != null) titles.add(x.title());
        return GroupingEngine.group(c, projects, titles, TopicClusterer.DEFAULT_THRESHOLD);
    }

    static GroupingEngine.Cluster with(List<GroupingEngine.Cluster> cs, String id) {
        return cs.stream()
                .filter(c -> c.session_ids().contains(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + " in no cluster: " + cs));
    }

    @Test
    void sessionsOnOneTopicInTheHomeDirectoryGetATitlePrefix() {
        List<GroupingEngine.Cluster> cs = group(HOME, HermesProjects.NONE);
        GroupingEngine.Cluster cc = with(cs, "cc1");
        assertEquals(List.of("cc1", "cc2", "cc3", "cc4"), cc.session_ids());
        assertEquals("Claude Code", cc.label());
        assertEquals("title_prefix", cc.advice().kind());
        assertEquals("[Claude Code]", cc.advice().prefix());
        assertEquals(
                List.of(
                        new GroupingEngine.Rename("cc1", "Claude Code hooks setup", "[Claude Code] hooks setup"),
                        new GroupingEngine.Rename("cc2", "Claude Code subagents", "[Claude Code] subagents"),
                        new GroupingEngine.Rename("cc3", "Claude Code 模式", "[Claude Code] 模式")),
                cc.advice().renames(),
                "cc4 already has the prefix");
        assertTrue(
                cc.advice().why().en().contains("share /home/u with other topics"),
                cc.advice().why().en());
        GroupingEngine.Cluster b = with(cs, "t1");
        assertEquals("B站搜索咨询", b.label());
        assertEquals(
                List.of("[B站搜索咨询]", "[B站搜索咨询] #2"),
                b.advice().renames().stream().map(GroupingEngine.Rename::to).toList());
        assertTrue(
                cs.stream()
                        .noneMatch(c -> c.session_ids().contains("x1")
                                || c.session_ids().contains("x2")),
                "one-offs stay alone");
    }

    @Test
    void aTopicWithADirectoryOfItsOwnGetsAProjectAndSaysWhatItWouldGather() {
        GroupingEngine.Cluster b = with(group(HOME, HermesProjects.NONE), "b1");
        assertEquals(List.of("b1", "b2", "b3"), b.session_ids());
        assertEquals("project", b.advice().kind());
        assertEquals("/home/u/src/billing", b.advice().project_path());
        assertEquals(3, b.advice().gathers());
        assertEquals(List.of(), b.advice().gathers_others());
        assertEquals(List.of(), b.advice().renames());
        // a stray session in the same folder is named: the Project would gather it too
        List<GroupingEngine.Cluster> cs = group(
                HOME + "z1 | Vacation photos | Sort my vacation photos by date | /home/u/src/billing\n",
                HermesProjects.NONE);
        GroupingEngine.Cluster b2 = with(cs, "b1");
        assertEquals("project", b2.advice().kind());
        assertEquals(4, b2.advice().gathers());
        assertEquals(List.of("z1"), b2.advice().gathers_others());
        // when most of what the folder holds is other topics, a Project does not fit
        StringBuilder more = new StringBuilder(HOME);
        for (int i = 0; i < 3; i++)
            more.append("o")
                    .append(i)
                    .append(" | Garden plan ")
                    .append(i)
                    .append(" | Which tomatoes ")
                    .append(i)
                    .append(" | /home/u/src/billing\n");
        assertEquals(
                "title_prefix",
                with(group(more.toString(), HermesProjects.NONE), "b1").advice().kind());
    }

    @Test
    void anExistingProjectThatGathersTheTopicIsNamed() {
        HermesProjects p = new HermesProjects(
                List.of(
                        new HermesProjects.Project("1", "Billing", List.of("/home/u/src/billing")),
                        new HermesProjects.Project("2", "Everything", List.of("/home/u"))),
                "projects.db",
                null);
        GroupingEngine.Cluster b = with(group(HOME, p), "b1");
        assertEquals("existing_project", b.advice().kind());
        assertEquals("Billing", b.advice().project_name());
        // a Project on the shared home folder gathers everything: it does not count as grouping the Claude Code topic
        assertEquals(
                "existing_project",
                with(group(HOME, p), "cc1").advice().kind(),
                "a project on /home/u does gather these sessions (longest prefix), so it is named");
    }

    @Test
    void renamesKeepTitlesUniqueAndShort() {
        assertEquals("[Rust] ownership", GroupingEngine.renamed("Rust: ownership", "Rust"));
        assertEquals("[Rust] #2", GroupingEngine.renamed("Rust #2", "Rust"));
        assertEquals("[Rust]", GroupingEngine.renamed("rust", "Rust"));
        assertEquals("[Rust] Borrowing in practice", GroupingEngine.renamed("Borrowing in practice", "Rust"));
        assertNull(GroupingEngine.renamed("[rust] borrowing", "Rust"));
        assertEquals(
                GroupingEngine.MAX_TITLE,
                GroupingEngine.renamed("x".repeat(200), "Rust").length());
        Set<String> inUse = Set.of("[Rust] a", "[Rust] a #2");
        assertEquals("[Rust] a #3", GroupingEngine.unique("[Rust] a", inUse, new HashSet<>()));
    }

    @Test
    void labels() {
        assertEquals("Claude Code", GroupingEngine.label(sessions("""
                a | Claude Code hooks | x | -
                b | claude code plugins | y | -
                c | Using Claude Code well | z | -
                """)));
        assertEquals("vacuum", GroupingEngine.label(sessions("""
                a | Postgres vacuum | x | -
                b | Why vacuum stalls | y | -
                """)));
        assertEquals("tax", GroupingEngine.label(sessions("""
                a | - | my tax deductions | -
                b | - | tax forms for 2026 | -
                """)));
        assertEquals("ssh", GroupingEngine.label(sessions("""
                a | ssh keys | x | -
                b | sshd config with ssh agent | y | -
                """)), "a word inside a longer word is not the label");
    }

    /** Claude Code candidates: the project directory is the encoded cwd, as Claude Code names it. */
    static List<GroupingEngine.Candidate> claude(String table) {
        return sessions(table).stream()
                .map(c -> new GroupingEngine.Candidate(
                        c.id(), c.title(), c.prompt(), c.cwd(), c.lastActivity(), ClaudeHome.encodeCwd(c.cwd())))
                .toList();
    }

    @Test
    void aClaudeCodeTopicWithThreeQuartersOfItsProjectIsAlreadyShownTogether() {
        List<GroupingEngine.Cluster> cs = GroupingEngine.groupClaude(claude("""
                b1 | Billing invoice split    | Refactor the billing invoice module            | /home/u/src/billing
                b2 | Billing invoice refunds  | Add refund tests to the billing invoice module | /home/u/src/billing
                b3 | Billing invoice rounding | Invoice totals round wrong in billing          | /home/u/src/billing
                o1 | Sourdough starter        | My sourdough starter smells like acetone       | /home/u/src/billing
                x1 | Tax return 2026          | What can I deduct on my tax return?            | /home/u
                x2 | Guitar chords            | Easy chords for a beginner                     | /home/u
                x3 | Marathon training plan   | Twelve weeks to a marathon                     | /home/u
                x4 | Japanese grammar         | When do I use wa and ga?                       | /home/u
                x5 | Visa application         | Which documents does the visa need?            | /home/u
                """), TopicClusterer.DEFAULT_THRESHOLD);
        assertEquals(1, cs.size(), cs.toString());
        GroupingEngine.Cluster b = cs.get(0);
        assertEquals("c1", b.cluster_id());
        assertEquals(List.of("b1", "b2", "b3"), b.session_ids());
        assertEquals("Billing invoice", b.label());
        // 3 of the project's 4 sessions = 0.75: /resume in the directory lists them, and one other
        assertEquals("claude_project", b.advice().kind());
        assertEquals("/home/u/src/billing", b.advice().project_path());
        assertEquals(4, b.advice().gathers());
        assertEquals(List.of("o1"), b.advice().gathers_others());
        assertEquals(List.of(), b.advice().renames());
        assertNull(b.advice().project_name());
    }

    @Test
    void aClaudeCodeTopicSharingItsProjectGetsSuggestedTitlesWithoutHermesNumbering() {
        List<GroupingEngine.Cluster> cs = GroupingEngine.groupClaude(claude("""
                b1 | Billing invoice split    | Refactor the billing invoice module            | /home/u/src/shop
                b2 | Billing invoice split    | Split the billing invoice module again         | /home/u/src/shop
                o1 | Sourdough starter        | My sourdough starter smells like acetone       | /home/u/src/shop
                o2 | Tax return 2026          | What can I deduct on my tax return?            | /home/u/src/shop
                """), TopicClusterer.DEFAULT_THRESHOLD);
        GroupingEngine.Cluster b = with(cs, "b1");
        assertEquals("title_prefix", b.advice().kind());
        // 2 of 4 < 0.75; Claude Code titles need not be unique, so no "#2" is added
        assertEquals(
                List.of(
                        new GroupingEngine.Rename("b1", "Billing invoice split", "[Billing invoice split]"),
                        new GroupingEngine.Rename("b2", "Billing invoice split", "[Billing invoice split]")),
                b.advice().renames());
        assertTrue(
                b.advice().why().en().contains("share /home/u/src/shop with other topics"),
                b.advice().why().en());
    }
}
