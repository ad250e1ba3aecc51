package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import org.junit.jupiter.api.Test;

/** {@code decode --jobs 2 --chunk-size N} on one source prints what {@code --jobs 1} prints. */
class DecodeInPiecesTest {
    @Test
    void oneSourceInPiecesPrintsTheSequentialOutput() {
        String tc2 = SharedData.tc2().toString();
        for (String[] extra : new String[][] {{}, {"--insn"}, {"--format", "jsonl"}, {"--last", "100"}}) {
            for (String source : new String[] {"0x11", "0x13"}) {
                CliTest.Result one = CliTest.run(args(tc2, source, "1", extra));
                CliTest.Result pieces = CliTest.run(args(tc2, source, "2", extra));
                assertThat(one.exit()).as(one.err()).isZero();
                assertThat(pieces.exit()).as(pieces.err()).isZero();
                assertThat(pieces.out()).as("%s %s", source, String.join(" ", extra)).isEqualTo(one.out());
            }
        }
        assertThat(CliTest.run("decode", tc2, "--chunk-size", "lots").err()).contains("--chunk-size")
                .contains("not a size");
    }

    private static String[] args(String dir, String source, String jobs, String[] extra) {
        String[] base = {"decode", dir, "--source", source, "--jobs", jobs, "--chunk-size", "100"};
        String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }
}
