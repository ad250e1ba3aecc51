package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One table of encoder options: one meaning per name, earlier names read or refused. */
class EncodeOptionTest {
    @Test
    void everyProtocolsOptionsComeFromTheTableWithTheTablesMeaning() {
        Map<String, EncodeOption> byName = Arrays.stream(EncodeOption.values())
                .collect(Collectors.toMap(EncodeOption::optionName, o -> o));
        assertThat(byName).hasSize(EncodeOption.values().length);
        int listed = 0;
        for (TraceProtocol p : Protocols.all()) {
            for (Map.Entry<String, String> e : p.encodeOptions().entrySet()) {
                EncodeOption o = byName.get(e.getKey());
                assertThat(o).as("%s --%s", p.name(), e.getKey()).isNotNull();
                assertThat(e.getValue()).as("%s --%s", p.name(), e.getKey()).startsWith(o.meaning());
                listed++;
            }
        }
        assertThat(listed).isGreaterThan(40);
        // the names that drifted apart before: the same option in every protocol that has it
        for (String name : List.of("context-id", "context-id-size", "branch-broadcast", "vmid")) {
            Set<String> meanings = Protocols.all().stream().filter(p -> p.encodeOptions().containsKey(name))
                    .map(p -> byName.get(name).meaning()).collect(Collectors.toSet());
            assertThat(meanings).as(name).hasSize(1);
        }
        assertThat(Protocols.byName("etm3").orElseThrow().encodeOptions()).containsKeys("context-id", "context-id-size",
                "branch-broadcast").doesNotContainKeys("branch-output");
        assertThat(Protocols.byName("etm2").orElseThrow().encodeOptions()).containsKeys("context-id", "context-id-size",
                "branch-broadcast").doesNotContainKeys("context-id-bytes", "branch-output");
    }

    @Test
    void renamedOptionsKeepWorkingWithANote() {
        List<String> notes = new ArrayList<>();
        Map<String, String> given = new LinkedHashMap<>();
        given.put("branch-output", "on");
        given.put("context-id-bytes", "2");
        given.put("port-width", "16");
        assertThat(EncodeOption.normalize("etm2", given, notes::add))
                .containsExactly(Map.entry("branch-broadcast", "on"), Map.entry("context-id-size", "2"),
                        Map.entry("port-width", "16"));
        assertThat(notes).containsExactly("--branch-output is deprecated; it is now called --branch-broadcast.",
                "--context-id-bytes is deprecated; it is now called --context-id-size.");
        // a protocol that never had the old name does not learn it
        notes.clear();
        assertThat(EncodeOption.normalize("ptm", Map.of("branch-output", ""), notes::add)).containsKey("branch-output");
        assertThat(notes).isEmpty();
        assertThatThrownBy(() -> EncodeOption.normalize("etm3", Map.of("branch-output", "", "branch-broadcast", ""), n -> { }))
                .hasMessageContaining("give only --branch-broadcast");
    }

    @Test
    void etm3sOldMeaningsAreRefusedNamingTheNewOption() {
        assertThatThrownBy(() -> EncodeOption.normalize("etm3", Map.of("context-id", "4"), n -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--context-id-size");
        assertThatThrownBy(() -> EncodeOption.normalize("etm3", Map.of("vmid", ""), n -> { }))
                .hasMessageContaining("--vmid=0x5a");
        assertThat(EncodeOption.normalize("etm3", Map.of("context-id", "0x42", "context-id-size", "4", "vmid", "0x5a"),
                n -> { })).hasSize(3);
        // PFT always had the value meaning
        assertThat(EncodeOption.normalize("ptm", Map.of("context-id", "0x42"), n -> { })).hasSize(1);
    }
}
