package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Adding up LCOV tracefiles and folded stacks (armtrace merge, the fleet job's aggregates). */
class MergeTest {
    private static final String A = """
            TN:armtrace
            SF:work.c
            FN:10,main
            FN:20,helper
            FNDA:1,main
            FNDA:0,helper
            FNF:2
            FNH:1
            BRDA:12,0,0,3
            BRDA:12,0,1,0
            BRDA:22,0,0,-
            BRDA:22,0,1,-
            BRF:4
            BRH:1
            DA:11,1
            DA:12,4
            DA:21,0
            LF:3
            LH:2
            end_of_record
            """;
    private static final String B = """
            TN:other
            SF:start.s
            DA:1,1
            LF:1
            LH:1
            end_of_record
            TN:other
            SF:work.c
            FN:20,helper
            FN:10,main
            FNDA:2,helper
            FNDA:0,main
            BRDA:22,0,0,1
            BRDA:22,0,1,-
            BRDA:12,0,0,0
            BRDA:12,0,1,2
            DA:21,2
            DA:12,1
            DA:11,0
            end_of_record
            """;

    private static String lcov(String... files) throws IOException {
        LcovTracefile t = new LcovTracefile();
        for (int i = 0; i < files.length; i++) {
            t.add(new StringReader(files[i]), (char) ('a' + i) + ".info");
        }
        StringWriter w = new StringWriter();
        t.write(new PrintWriter(w), "armtrace");
        return w.toString();
    }

    @Test
    void lcovCountsAreSummedPerLineFunctionAndBranch() throws IOException {
        // by hand: DA 11: 1+0, 12: 4+1, 21: 0+2; FNDA helper 0+2, main 1+0;
        // BRDA 12/0/0: 3+0, 12/0/1: 0+2, 22/0/0: - + 1 = 1, 22/0/1: - + - = -
        assertThat(lcov(A, B)).isEqualTo("""
                TN:armtrace
                SF:start.s
                FNF:0
                FNH:0
                BRF:0
                BRH:0
                DA:1,1
                LF:1
                LH:1
                end_of_record
                TN:armtrace
                SF:work.c
                FN:20,helper
                FN:10,main
                FNDA:2,helper
                FNDA:1,main
                FNF:2
                FNH:2
                BRDA:12,0,0,3
                BRDA:12,0,1,2
                BRDA:22,0,0,1
                BRDA:22,0,1,-
                BRF:4
                BRH:3
                DA:11,1
                DA:12,5
                DA:21,2
                LF:3
                LH:3
                end_of_record
                """);
        assertThat(lcov(B, A)).isEqualTo(lcov(A, B));
    }

    @Test
    void foldedCountsAreSummedPerPath() throws IOException {
        FoldedStacks f = new FoldedStacks();
        f.add(new StringReader("main;work 10\nmain 3\n"), "a");
        f.add(new StringReader("main;work 5\n[core 1];main 2\n"), "b");
        StringWriter w = new StringWriter();
        f.write(new PrintWriter(w));
        assertThat(w.toString()).isEqualTo("[core 1];main 2\nmain 3\nmain;work 15\n".replace("\n", System.lineSeparator()));
    }

    @Test
    void malformedInputIsNamedWithItsLine() {
        assertThatThrownBy(() -> lcov("SF:x\nDA:one,2\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
        assertThatThrownBy(() -> new FoldedStacks().add(new StringReader("main\n"), "p.folded"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p.folded line 1");
    }

    /** Two counts of 2^63-1 gave -2 in the sum, and negative counts were taken: both are refused with file and line. */
    @Test
    void countsThatAreNegativeMalformedOrOverflowAreRefused() {
        String max = Long.toString(Long.MAX_VALUE);
        assertThatThrownBy(() -> lcov("SF:x\nDA:3," + max + "\nend_of_record\n", "SF:x\nDA:3,1\nend_of_record\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("b.info line 2")
                .hasMessageContaining("64-bit count");
        assertThatThrownBy(() -> lcov("SF:x\nFNDA:" + max + ",main\nend_of_record\n", "SF:x\nFNDA:" + max + ",main\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("b.info line 2");
        assertThatThrownBy(() -> lcov("SF:x\nBRDA:1,0,0," + max + "\n", "SF:x\nBRDA:1,0,0,1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("b.info line 2");
        for (String bad : new String[] {"DA:3,-1", "FNDA:-5,main", "BRDA:1,0,0,-2", "DA:-3,1", "DA:3,+1", "DA:3,\uff11",
                "DA:3,99999999999999999999"}) {
            assertThatThrownBy(() -> lcov("SF:x\n" + bad + "\n")).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("a.info line 2");
        }
        FoldedStacks f = new FoldedStacks();
        assertThatThrownBy(() -> {
            f.add(new StringReader("main;work " + max + "\n"), "a.folded");
            f.add(new StringReader("other 1\nmain;work 1\n"), "b.folded");
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("b.folded line 2").hasMessageContaining("64-bit");
        for (String bad : new String[] {"main -1", "main +1", "main \u0661", "main 1e3"}) {
            assertThatThrownBy(() -> new FoldedStacks().add(new StringReader(bad + "\n"), "c.folded")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("c.folded line 1");
        }
    }

    @FuzzTest(maxDuration = "30s")
    void parsersThrowOnlyTheirOneSentence(FuzzedDataProvider data) throws IOException {
        String text = data.consumeRemainingAsString();
        try {
            new LcovTracefile().add(new StringReader(text), "fuzz");
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).hasSizeLessThan(300);
        }
        try {
            new FoldedStacks().add(new StringReader(text), "fuzz");
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).hasSizeLessThan(300);
        }
    }
}
