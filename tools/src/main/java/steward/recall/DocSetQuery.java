package steward.recall;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Matches exactly the given documents of one reader (global ids, sorted): the filter of the second ranking stage, so
 * that the costly BM25F scorer runs on a few hundred candidates instead of every document holding a query term.
 */
final class DocSetQuery extends Query {
    private final int[] docs;

    DocSetQuery(int[] sortedDocs) {
        this.docs = sortedDocs;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new ConstantScoreWeight(this, boost) {
            @Override
            public Scorer scorer(LeafReaderContext ctx) {
                int base = ctx.docBase, end = base + ctx.reader().maxDoc();
                int from = lowerBound(base), to = lowerBound(end);
                if (from == to) return null;
                return new ConstantScoreScorer(this, score(), scoreMode, new DocIdSetIterator() {
                    int i = from - 1, doc = -1;

                    @Override
                    public int docID() {
                        return doc;
                    }

                    @Override
                    public int nextDoc() {
                        return doc = ++i < to ? docs[i] - base : NO_MORE_DOCS;
                    }

                    @Override
                    public int advance(int target) throws IOException {
                        while (nextDoc() < target) {
                            /* a few hundred ids at most */
                        }
                        return doc;
                    }

                    @Override
                    public long cost() {
                        return to - from;
                    }
                });
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return false;
            }
        };
    }

    private int lowerBound(int v) {
        int i = Arrays.binarySearch(docs, v);
        return i >= 0 ? i : -i - 1;
    }

    @Override
    public String toString(String field) {
        return "DocSetQuery(" + docs.length + " docs)";
    }

    @Override
    public void visit(QueryVisitor visitor) {
        visitor.visitLeaf(this);
    }

    @Override
    public boolean equals(Object other) {
        return other == this;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
