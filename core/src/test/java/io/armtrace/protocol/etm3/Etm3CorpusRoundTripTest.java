package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real programs run under QEMU (Cortex-A9 A32 and T32, Cortex-M3): every encoder option combination
 * decodes back to exactly the executed instructions and the exceptions taken.
 */
class Etm3CorpusRoundTripTest {

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String name : List.of("a9-arm", "a9-thumb", "m3")) {
            int k = 0;
            for (boolean alt : new boolean[] {false, true}) {
                for (boolean ca : new boolean[] {false, true}) {
                    for (int ctx : new int[] {0, 1, 2, 4}) {
                        k++;
                        boolean m = name.equals("m3");
                        Etm3Encoder.Options o = Etm3Encoder.Options.DEFAULT.withAlternativeBranch(alt).withCycleAccurate(ca)
                                .withContextId(ctx, 0x00C0FFEEL).withVmid((k & 1) != 0, 3)
                                .withTimestamps((k & 2) != 0, (k & 4) != 0)
                                .withDeprecatedExceptions(!m && (k & 1) == 0)
                                .withArmv7m(m, m && (k & 2) != 0)
                                .withPeriods((k & 1) != 0 ? 512 : 4096, (k & 2) != 0 ? 256 : 2048)
                                .withBranchOutput((k & 4) != 0);
                        out.add(Arguments.of(name, o));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void everyOptionCombinationDecodesBackToTheExecution(String name, Etm3Encoder.Options o) {
        Execution x = Corpus.execution(name);
        ProgramImage image = Corpus.image(name);
        assertThat(Corpus.profile(name)).isEqualTo(name.equals("m3") ? Profile.M : Profile.AR);
        Etm3Encoder.Result enc = new Etm3Encoder(o, image).encode(x);
        List<TraceElement> els = Etm3RoundTripTest.decode(enc.trace(), enc.config(), image);
        assertThat(els).noneMatch(e -> e instanceof Gap || e instanceof DecodeError || e instanceof NoImage);
        Etm3RoundTripTest.assertSameSteps(x, els, image);
        List<ExceptionEntry> ex = els.stream().filter(e -> e instanceof ExceptionEntry).map(e -> (ExceptionEntry) e).toList();
        List<ExecutionEvent.ExceptionTaken> taken = x.events().stream()
                .filter(e -> e instanceof ExecutionEvent.ExceptionTaken).map(e -> (ExecutionEvent.ExceptionTaken) e).toList();
        assertThat(ex).hasSize(taken.size());
        for (int i = 0; i < ex.size(); i++) {
            assertThat(ex.get(i).number()).as("exception %d", i).isEqualTo(taken.get(i).number());
            assertThat(ex.get(i).preferredReturn()).as("exception %d return", i).isEqualTo(taken.get(i).preferredReturn());
        }
        // exception returns: A/R cores return with an exception-return instruction; ARMv7-M ones are
        // marked by the exception exit packet when the options ask for it
        if (!o.armv7m() || o.exceptionPackets()) {
            List<Long> returns = els.stream().filter(e -> e instanceof ExceptionReturn).map(e -> ((ExceptionReturn) e).target()).toList();
            List<Long> resumed = x.events().stream().filter(e -> e instanceof ExecutionEvent.ExceptionReturned)
                    .map(e -> ((ExecutionEvent.ExceptionReturned) e).resume()).toList();
            assertThat(returns).isEqualTo(resumed);
        }
    }

    /**
     * Programs not in the repository ({@code -Darmtrace.extraGroundTruth=DIR}), A/R and M profile alike;
     * without the property, the repository's Linux user-mode programs (glibc code the bare-metal ones lack).
     */
    @org.junit.jupiter.api.Test
    void extraGroundTruthProgramsRoundTrip() {
        List<String> names = System.getProperty(Corpus.EXTRA_PROPERTY) == null ? Corpus.userModeNames()
                : Corpus.extraNames();
        assertThat(names).isNotEmpty();
        for (String name : names) {
            boolean m = Corpus.profile(name) == Profile.M;
            for (boolean ca : new boolean[] {false, true}) {
                Etm3Encoder.Options o = Etm3Encoder.Options.DEFAULT.withCycleAccurate(ca).withArmv7m(m, m && ca)
                        .withAlternativeBranch(ca).withTimestamps(true, false);
                Execution x = Corpus.execution(name);
                ProgramImage image = Corpus.image(name);
                Etm3Encoder.Result enc = new Etm3Encoder(o, image).encode(x);
                List<TraceElement> els = Etm3RoundTripTest.decode(enc.trace(), enc.config(), image);
                assertThat(els).as(name).noneMatch(e -> e instanceof Gap || e instanceof DecodeError || e instanceof NoImage);
                Etm3RoundTripTest.assertSameSteps(x, els, image);
            }
        }
    }
}
