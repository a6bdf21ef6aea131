package steward.sessions.apply;

import java.util.List;
import java.util.Map;
import java.util.Set;
import steward.sessions.audit.Plan;
import steward.sessions.store.SessionRow;

/** Tests in other packages: which items of a plan {@code ApplyEngine} would run for these answers (nothing is written). */
public final class ApplyEngineAccess {
    private ApplyEngineAccess() {}

    public static List<String> decide(List<SessionRow> rows, Plan plan, Map<String, String> itemDecisions) {
        ApplyRequest req = new ApplyRequest(plan.plan_id(), itemDecisions, null, null, true, null);
        ApplyEngine.validate(plan, req);
        return ApplyEngine.decide(rows, plan.items(), plan, req, Set.of(plan.current_session_id())).run().stream()
                .map(p -> p.item().session_id())
                .toList();
    }
}
