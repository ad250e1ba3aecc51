package io.armtrace.execution;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.isa.Profile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Arbitrary bytes as execution records and QEMU logs: each reads or says where it is wrong with a
 * {@link ExecutionFormat.FormatException} (or an {@link IOException} for a damaged gzip stream), nothing
 * else. {@code mvn test} replays the stored inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class ExecutionFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void executionRecordReadsOrSaysWhere(byte[] data) {
        try (ExecutionFormat.Reader r = ExecutionFormat.reader(new ByteArrayInputStream(data))) {
            r.header();
            while (r.next() != null) {
                r.lineNumber();
            }
        } catch (ExecutionFormat.FormatException | IOException e) {
            // the contract: a line number and a sentence, or a damaged stream
        }
    }

    @FuzzTest(maxDuration = "20s")
    void qemuLogReadsOrSaysWhere(byte[] data) {
        // the first byte chooses the profile and whether the log is also its own register log (as
        // QEMU writes both into one file with -d in_asm,cpu and the plugin)
        int flags = data.length == 0 ? 0 : data[0];
        byte[] log = data.length == 0 ? data : java.util.Arrays.copyOfRange(data, 1, data.length);
        List<ExecutionEvent> events = new ArrayList<>();
        try {
            QemuPluginLog.importLog(new ByteArrayInputStream(log), (flags & 1) != 0 ? Profile.M : Profile.AR, null,
                    (flags & 2) != 0 ? new ByteArrayInputStream(log) : null, events::add);
        } catch (ExecutionFormat.FormatException | IOException e) {
            // the contract: a line number and a sentence, or a damaged stream
        }
    }
}
