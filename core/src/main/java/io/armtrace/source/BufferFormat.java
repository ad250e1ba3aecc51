package io.armtrace.source;

import java.util.Locale;

/** How a trace buffer file of a snapshot is laid out. */
public enum BufferFormat {
    /** CoreSight formatted frames as a memory buffer holds them (ETB/ETF/ETR): no syncs. */
    CORESIGHT("coresight"),
    /** One source's raw trace bytes, unformatted. */
    SOURCE_DATA("source_data"),
    /** CoreSight frames as a trace port capture gives them (DSTREAM, TPIU): with frame and half-word syncs. */
    DSTREAM_CORESIGHT("dstream_coresight");

    private final String iniName;

    BufferFormat(String iniName) {
        this.iniName = iniName;
    }

    public String iniName() {
        return iniName;
    }

    public boolean formatted() {
        return this != SOURCE_DATA;
    }

    public static BufferFormat parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        for (BufferFormat f : values()) {
            if (f.iniName.equals(t)) {
                return f;
            }
        }
        return null;
    }
}
