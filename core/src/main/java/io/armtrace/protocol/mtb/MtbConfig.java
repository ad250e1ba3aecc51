package io.armtrace.protocol.mtb;

import io.armtrace.source.Registers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * How an MTB was set up when its buffer was read: the POSITION and MASTER registers (required), FLOW,
 * BASE and the halted core's PC (optional), and where the vector table lies (VTOR, optional).
 *
 * <p>Register layouts (Cortex-M0+ MTB, as the Kinetis KL and SAM D reference manuals give them):
 * <ul>
 *   <li>POSITION: POINTER bits 31:3 = address bits 31:3 of the next packet to be written (an empty
 *       ascending pointer); WRAP bit 2 = the pointer has wrapped at least once.</li>
 *   <li>MASTER: EN bit 31, HALTREQ bit 9, RAMPRIV bit 8, SFRWPRIV bit 7, TSTOPEN bit 6, TSTARTEN bit 5,
 *       MASK bits 4:0. The buffer is a circular buffer of 2^(MASK+4) bytes placed at a multiple of its
 *       size; POINTER bits above MASK+3 do not change on wrap and select where it lies.</li>
 *   <li>FLOW: WATERMARK bits 31:3, AUTOHALT bit 1, AUTOSTOP bit 0.</li>
 *   <li>BASE: the bus address of the MTB SRAM (read-only on the device).</li>
 * </ul>
 * {@code mask} is -1 when MASTER was not given: the buffer is then taken to be the whole dump.
 */
public record MtbConfig(long position, long master, boolean hasMaster, OptionalLong flow, OptionalLong base,
                        OptionalLong pc, OptionalLong vtor) {

    /** Largest buffer armtrace accepts (MASK up to 24); larger MASK values mean a damaged register. */
    public static final int MAX_MASK = 24;

    /** Reads the MTB registers; POSITION is required. */
    public static MtbConfig from(Registers r) {
        if (!r.has("POSITION")) {
            throw new IllegalArgumentException("MTB decoding needs the POSITION register (--reg POSITION=0x...): "
                    + "it says where the next packet would have been written.");
        }
        return new MtbConfig(r.get("POSITION", 0) & 0xFFFFFFFFL, r.get("MASTER", 0) & 0xFFFFFFFFL, r.has("MASTER"),
                opt(r, "FLOW"), opt(r, "BASE"), opt(r, "PC"), opt(r, "VTOR"));
    }

    private static OptionalLong opt(Registers r, String name) {
        return r.has(name) ? OptionalLong.of(r.get(name, 0) & 0xFFFFFFFFL) : OptionalLong.empty();
    }

    /** POSITION.POINTER as an address: bits 31:3. */
    public long pointer() {
        return position & 0xFFFFFFF8L;
    }

    /** POSITION.WRAP. */
    public boolean wrapped() {
        return (position & 4) != 0;
    }

    /** MASTER.EN: trace was still enabled when the registers were read. */
    public boolean enabled() {
        return (master & 0x80000000L) != 0;
    }

    public boolean tstartEnabled() {
        return (master & 0x20) != 0;
    }

    public boolean tstopEnabled() {
        return (master & 0x40) != 0;
    }

    public boolean haltRequested() {
        return (master & 0x200) != 0;
    }

    /** MASTER.MASK, or -1 if MASTER was not given. */
    public int mask() {
        return hasMaster ? (int) (master & 0x1F) : -1;
    }

    /** Buffer size in bytes that MASTER.MASK gives (2^(MASK+4)), or -1 if MASTER was not given. */
    public long maskedBufferSize() {
        return hasMaster ? 1L << (mask() + 4) : -1;
    }

    /**
     * Where the active buffer lies in a dump of {@code dumpLength} bytes read from the start of the MTB
     * SRAM (or exactly the buffer), and in which order its packets were written.
     */
    public MtbLayout layout(long dumpLength) {
        return MtbLayout.of(this, dumpLength);
    }

    /** The registers explained in words, one line each. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add(String.format("POSITION 0x%08x: next packet at address 0x%08x (POINTER), %s", position, pointer(),
                wrapped() ? "WRAP=1: the buffer has wrapped, every packet in it is valid, the oldest at POINTER"
                        : "WRAP=0: the buffer has not wrapped, valid packets lie below POINTER"));
        if (hasMaster) {
            StringBuilder sb = new StringBuilder(String.format("MASTER 0x%08x: trace %s, buffer 2^(MASK %d + 4) = %d bytes",
                    master, enabled() ? "enabled (EN=1)" : "disabled (EN=0)", mask(), maskedBufferSize()));
            if (mask() > MAX_MASK) {
                sb.append(" (larger than armtrace accepts; MASK is taken as ").append(MAX_MASK).append(')');
            }
            if (tstartEnabled()) {
                sb.append(", TSTART input starts trace");
            }
            if (tstopEnabled()) {
                sb.append(", TSTOP input stops trace");
            }
            if (haltRequested()) {
                sb.append(", halt requested (HALTREQ=1)");
            }
            if ((master & 0x100) != 0) {
                sb.append(", RAM privileged only");
            }
            out.add(sb.toString());
            long size = 1L << (Math.min(mask(), MAX_MASK) + 4);
            out.add(String.format("  the active buffer is the %d-byte block that holds POINTER; the next packet goes to "
                    + "byte %d of it, %d packets fit", size, pointer() & (size - 1), size / 8));
        } else {
            out.add("MASTER not given: the whole dump is taken to be the buffer");
        }
        flow.ifPresent(f -> out.add(String.format("FLOW 0x%08x: watermark 0x%08x%s%s", f, f & 0xFFFFFFF8L,
                (f & 1) != 0 ? ", AUTOSTOP: trace stops when POINTER reaches the watermark" : "",
                (f & 2) != 0 ? ", AUTOHALT: the core halts when POINTER reaches the watermark" : "")));
        base.ifPresent(b -> out.add(String.format("BASE 0x%08x: the MTB SRAM (and the dump) starts at this address", b)));
        pc.ifPresent(p -> out.add(String.format("PC 0x%08x: the core stopped here; the newest run is completed up to it", p)));
        vtor.ifPresent(v -> out.add(String.format("VTOR 0x%08x: vector table used to name exceptions", v)));
        return out;
    }
}
