package steward.memory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import steward.StewardError;
import steward.state.IoErrors;
import steward.text.CodePoints;

/**
 * A Hermes memory file ({@code MEMORY.md} / {@code USER.md}) as Hermes reads it: entries separated by
 * {@code "\n§\n"}, each stripped (Python {@code str.strip()}), empty ones dropped, exact duplicates
 * dropped (first wins). Its size is the code-point length of the entries joined again.
 */
public record MemoryDocument(List<String> entries, boolean exists, String raw) {
    public static final String DELIMITER = "\n§\n";

    public static MemoryDocument parse(String raw) {
        if (raw == null) return new MemoryDocument(List.of(), false, null);
        String text = raw.replace("\r\n", "\n").replace("\r", "\n");
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        for (String part : text.split(DELIMITER, -1)) {
            String e = CodePoints.pyStrip(part);
            if (!e.isEmpty()) seen.add(e);
        }
        return new MemoryDocument(List.copyOf(new ArrayList<>(seen)), true, raw);
    }

    /** Reads a memory file; a missing file is an empty, non-existent document; invalid UTF-8 is an error. */
    public static MemoryDocument read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new MemoryDocument(List.of(), false, null);
        } catch (IOException e) {
            throw new StewardError(
                    file.getFileName().toString(), "cannot read " + file + ": " + IoErrors.describe(e), e);
        }
        return parse(decodeUtf8(bytes, file));
    }

    public static String decodeUtf8(byte[] bytes, Path file) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new StewardError(
                    file.getFileName().toString(),
                    "not valid UTF-8 (" + file + "); fix or re-encode the file before Steward reads or writes it");
        }
    }

    /** Python's universal-newline read: {@code \r\n} and lone {@code \r} become {@code \n}. */
    public static String normalizeNewlines(String raw) {
        if (raw.indexOf('\r') < 0) return raw;
        return raw.replace("\r\n", "\n").replace("\r", "\n");
    }

    /** The text as Hermes sees it after reading (newlines normalised); empty when the file is absent. */
    public String text() {
        return raw == null ? "" : normalizeNewlines(raw);
    }

    /** Stripped, non-empty entries in file order, duplicates kept (what Hermes' drift check round-trips). */
    public List<String> rawEntries() {
        List<String> out = new ArrayList<>();
        if (raw == null) return out;
        for (String part : text().split(DELIMITER, -1)) {
            String e = CodePoints.pyStrip(part);
            if (!e.isEmpty()) out.add(e);
        }
        return out;
    }

    /**
     * Hermes' external-drift test: the file does not round-trip through parse and join (after
     * {@code strip()}), or one entry is longer than the whole store's limit.
     */
    public boolean drifted(int limit) {
        if (raw == null) return false;
        String stripped = CodePoints.pyStrip(text());
        if (stripped.isEmpty()) return false;
        List<String> parts = rawEntries();
        if (!stripped.equals(String.join(DELIMITER, parts))) return true;
        for (String e : parts) {
            if (CodePoints.length(e) > limit) return true;
        }
        return false;
    }

    public String joined() {
        return String.join(DELIMITER, entries);
    }

    /** Characters counted as Hermes counts them: code points of the joined entries. */
    public int chars() {
        return CodePoints.length(joined());
    }
}
