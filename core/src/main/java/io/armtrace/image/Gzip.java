package io.armtrace.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Program images that come gzip-compressed ({@code prog.elf.gz}, as ELF files are often shipped): told
 * by the gzip magic bytes, not the name, and read whole with a bound on what they decompress to, so
 * that a small file cannot fill the heap.
 */
final class Gzip {
    /** The most a compressed image may decompress to: far more than any AArch32 program. */
    static final int LIMIT = 256 << 20;

    private Gzip() {
    }

    /** True if {@code file} starts with the gzip magic bytes 1f 8b (RFC 1952, 2.3.1). */
    static boolean isGzip(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        } catch (IOException e) {
            return false;
        }
    }

    /** The decompressed contents of {@code file}. */
    static byte[] read(Path file) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 1 << 16)) {
            byte[] bytes = in.readNBytes(LIMIT + 1);
            if (bytes.length > LIMIT) {
                throw new ImageException(file + ": decompresses to more than " + (LIMIT >> 20)
                        + " MiB, more than a program image; decompress it and give the file itself.");
            }
            return bytes;
        } catch (IOException e) {
            throw new ImageException(file + ": cannot decompress it (" + (e.getMessage() == null ? "damaged gzip data"
                    : e.getMessage()) + ").", e);
        }
    }

    /** The first {@code n} bytes of {@code file} as they decompress, fewer if it is shorter; none if damaged. */
    static byte[] head(Path file, int n) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readNBytes(n);
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
