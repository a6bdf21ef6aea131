package steward.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

final class LearningBenchSupport {
    private LearningBenchSupport() {}

}
