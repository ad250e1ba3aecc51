package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The analysis commands run their analysis on a thread beside the decoder when there are two processors
 * ({@link AnalysisRun#piped}): what they print is what the analysis on the decoder's own thread prints, on every
 * protocol, with and without a filter.
 */
class AnalysisBesideDecoderTest {
    @Test
    void theAnalysisBesideTheDecoderPrintsWhatItPrintsOnTheDecodersThread() {
        String tc2 = SharedData.tc2().toString();
        String[][] inputs = {{tc2, "--source", "0x13"}, {tc2, "--source", "0x10"}, {tc2},
                {SharedData.dir("etm4/juno-uname-002").toString(), "--source", "0x16"}, {"examples/mtb-m0plus"},
                {"examples/etm2-arm926-thumb"}, {PerfDataCliTest.KERNEL, "--symdir", "conformance/perfdata"}};
        String[][] commands = {{"profile"}, {"callgraph"}, {"callgraph", "--format", "dot"}, {"coverage"},
                {"autofdo"}, {"profile", "--from", "0xc0018d00", "--to", "0xc0019000"}};
        boolean before = AnalysisRun.piped;
        int compared = 0;
        try {
            for (String[] input : inputs) {
                for (String[] command : commands) {
                    List<String> args = new ArrayList<>(List.of(command[0]));
                    args.addAll(List.of(input));
                    args.addAll(List.of(command).subList(1, command.length));
                    String[] a = args.toArray(new String[0]);
                    AnalysisRun.piped = false;
                    CliTest.Result one = CliTest.run(a);
                    AnalysisRun.piped = true;
                    CliTest.Result two = CliTest.run(a);
                    String what = String.join(" ", a);
                    assertThat(two.exit()).as(what + ": " + two.err()).isEqualTo(one.exit());
                    assertThat(two.out()).as(what).isEqualTo(one.out());
                    assertThat(two.err()).as(what).isEqualTo(one.err());
                    if (one.exit() == 0 && !one.out().isEmpty()) {
                        compared++;
                    }
                }
            }
        } finally {
            AnalysisRun.piped = before;
        }
        // most pairs print something (an address filter outside a program's code prints nothing, and coverage of
        // a snapshot without symbols or a recording may refuse)
        assertThat(compared).isGreaterThan(inputs.length * commands.length / 2);
    }
}
