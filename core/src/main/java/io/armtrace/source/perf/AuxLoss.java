package io.armtrace.source.perf;

/**
 * A point in a queue's AUX stream where trace was lost: at byte {@code streamOffset} of the queue's AUX
 * bytes in the file (a decoder reports a gap there and resynchronizes), at AUX offset {@code auxOffset};
 * {@code bytes} lost when known, else -1; {@code time} of the record that says so, or -1.
 */
public record AuxLoss(AuxQueue queue, long streamOffset, long auxOffset, long bytes, long time, Reason reason) {
    /** How the loss shows in the recording. */
    public enum Reason {
        /** PERF_AUX_FLAG_TRUNCATED: the AUX buffer was full; trace after this record's data was lost. */
        TRUNCATED("buffer full (AUX record flag truncated)"),
        /** PERF_AUX_FLAG_COLLISION: the sample collided with another and data was lost. */
        COLLISION("collision (AUX record flag collision)"),
        /** PERF_AUX_FLAG_PARTIAL: the record's data contains gaps. */
        PARTIAL("gaps in the data (AUX record flag partial)"),
        /** A PERF_RECORD_AUX reported data that no AUXTRACE record of the file holds. */
        NOT_IN_FILE("reported by an AUX record but not in the file"),
        /** Consecutive AUXTRACE buffers of the queue leave AUX offsets out. */
        OFFSET_GAP("AUX offsets skipped between buffers");

        final String words;

        Reason(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }
}
