package io.armtrace.execution;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.protocol.Protocols;
import io.armtrace.trace.TraceElement;
import java.util.List;
import java.util.Map;

/**
 * Arbitrary text as a software events file, for ITM and STM, and what parses on through the encoder: a line
 * it cannot read, or an event the encoder cannot express, is an IllegalArgumentException that says so (a
 * user's mistake, exit 2); nothing else escapes. {@code mvn test} replays the stored inputs.
 */
class SoftwareEventsFuzzTest {
    @FuzzTest(maxDuration = "20s")
    void eventsParseOrSayWhy(FuzzedDataProvider data) {
        String protocol = data.consumeBoolean() ? "itm" : "stm";
        String text = data.consumeRemainingAsString();
        List<TraceElement> events;
        try {
            events = SoftwareEventFormat.parse(List.of(text.split("\n", -1)), "fuzz", protocol, 1);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("fuzz line ")) {
                throw e;
            }
            return;
        }
        try {
            Protocols.byName(protocol).orElseThrow().encodeSoftware(events, Map.of());
        } catch (IllegalArgumentException e) {
            // the encoder's refusal names the event and ends a sentence (exit 2 from encode)
            String m = e.getMessage();
            if (m == null || !m.startsWith("event ") || !m.endsWith(".") || m.contains("\n")) {
                throw e;
            }
        }
    }
}
