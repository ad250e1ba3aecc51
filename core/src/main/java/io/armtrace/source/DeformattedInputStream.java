package io.armtrace.source;

import java.io.InputStream;

/** Reads one source's bytes out of a formatted stream, deformatting it chunk by chunk as it goes. */
final class DeformattedInputStream extends DemuxInputStream {
    private final FrameDeformatter deformatter;

    DeformattedInputStream(InputStream in, int wantedId, boolean removeSyncs) {
        super(in);
        this.deformatter = new FrameDeformatter((id, b, off, len) -> {
            if (id == wantedId) {
                accept(b, off, len);
            }
        }, removeSyncs);
    }

    @Override
    void push(byte[] b, int off, int len) {
        deformatter.push(b, off, len);
    }
}
