package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every packet kind the real captures lack, checked against OpenCSD: the hand-built snapshots of
 * tools/opencsd-check/etm4_cases.py (speculation, cycle counts, Q, conditional and data packets, ETE,
 * v8-M, errors), as Debian's {@code trc_pkt_lister} 1.3.3 lists them. The listings were recorded by
 * {@code tools/opencsd-check/etm4.sh --record} into {@code opencsd-1.3.3/} beside this class; the same
 * script runs this test on fresh trc_pkt_lister output with {@code -Darmtrace.etm4.listings=DIR}, which
 * also holds 1.3.3's listings of the conformance/etm4 snapshots.
 *
 * <p>Where armtrace resynchronizes after an error and OpenCSD goes on reading packets, the packets
 * OpenCSD lists are counted, as in {@link Etm4ConformanceTest}.
 */
class Etm4OpenCsdListingsTest {
    /** Packets OpenCSD lists where armtrace looks for the next A-sync after an error. */
    private static final Map<String, Integer> RESYNC_SKIPS = Map.of("errors", 7, "a55-test-tpiu", 8076);

    /**
     * Differences on purpose (docs/etm4.md): in "errors", a commit count field of six bytes at index 126, which
     * OpenCSD reads on (it bounds no field), is a bad sequence to armtrace (a 32-bit count has at most five);
     * in "state-change", the 32-bit address with an AArch32 context at index 27 and the short address after it
     * at 35, to which OpenCSD gives the upper half of the AArch64 address before them (it applies the packet's
     * context only after its address).
     */
    private static final Map<String, java.util.Set<Long>> ALLOWED = Map.of("errors", java.util.Set.of(126L),
            "state-change", java.util.Set.of(27L, 35L));

    /** The errors case starts with extra zeros before its first A-sync: OpenCSD's 3 one-byte I_ASYNC lines and its A-sync. */
    private static final Map<String, Integer> QUIRKS = Map.of("errors", 4);

    @Test
    void everyHandBuiltPacketMatchesTrcPktLister() throws IOException {
        String given = System.getProperty("armtrace.etm4.listings");
        Path dir = given != null ? Path.of(given) : Path.of("core/src/test/resources/io/armtrace/protocol/etm4/opencsd-1.3.3");
        assertThat(dir.resolve("speculation-and-counts.ppl")).as("recorded trc_pkt_lister listings in " + dir).isRegularFile();
        List<Path> listings;
        try (Stream<Path> s = Files.list(dir)) {
            listings = s.filter(p -> p.toString().endsWith(".ppl")).sorted().toList();
        }
        assertThat(listings).hasSizeGreaterThanOrEqualTo(8);
        List<String> problems = new ArrayList<>();
        long matched = 0;
        for (Path listing : listings) {
            String name = listing.getFileName().toString().replace(".ppl", "");
            Path snapshot = Files.isDirectory(dir.resolve(name)) ? dir.resolve(name) : SharedData.dir("etm4/" + name);
            java.util.Set<Long> allowed = ALLOWED.getOrDefault(name, java.util.Set.of());
            Etm4ConformanceTest.Result r = Etm4ConformanceTest.compare(snapshot, listing, allowed);
            problems.addAll(r.problems());
            matched += r.matched();
            assertThat(r.skipped()).as(name + ": packets OpenCSD lists where armtrace resynchronizes")
                    .isEqualTo(RESYNC_SKIPS.getOrDefault(name, 0));
            assertThat(r.quirks()).as(name + ": OpenCSD's extra-zero A-sync lines").isEqualTo(QUIRKS.getOrDefault(name, 0));
            assertThat(r.allowed()).as(name + ": differences on purpose").isEqualTo(allowed.size());
        }
        assertThat(problems).as("differences from trc_pkt_lister (" + matched + " packets agree)").isEmpty();
    }
}
