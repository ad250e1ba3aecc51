package io.armtrace.source;

import java.io.InputStream;

/** Reads one tagged stream out of an OFLOW capture, decoding its frames chunk by chunk as it goes. */
final class OflowInputStream extends DemuxInputStream {
    private final OflowDecoder decoder;

    OflowInputStream(InputStream in, int wantedTag) {
        super(in);
        this.decoder = new OflowDecoder((tag, b, off, len) -> {
            if (tag == wantedTag) {
                accept(b, off, len);
            }
        });
    }

    @Override
    void push(byte[] b, int off, int len) {
        decoder.push(b, off, len);
    }
}
