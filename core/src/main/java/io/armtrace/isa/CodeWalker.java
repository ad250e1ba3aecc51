package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;

/**
 * The block cache of the flow decoders: from (address, ISA) to the next waypoint, so that each atom of
 * trace costs one lookup instead of one classification per instruction.
 *
 * <p>A block is walked from its start through non-waypoint instructions up to and including the first
 * waypoint. A waypoint is any instruction that can write the PC other than by stepping
 * ({@link Insn#writesPc()}: branches, exception-generating instructions, exception returns) and, if the
 * walker was built with {@code isbIsWaypoint}, ISB ({@link WaypointKind#BARRIER}). PFT needs that: IHI
 * 0035B section 2.2, Tables 2.2 and 2.3, list ISB (including the CP15 ISB encoding) among the
 * instructions that are always waypoints; DMB and DSB (including their CP15 encodings) are waypoints
 * there too when ETMCCER bit 24 says so: pass {@code dataBarriersAreWaypoints} to the full constructor,
 * and such blocks end with kind {@link WaypointKind#BARRIER}. ETMv3, ETMv1/v2 and MTB treat no barrier
 * specially.
 *
 * <p>A64 code is walked the same way (ETMv4 and ETE: ISB is a P0 instruction, so pass
 * {@code isbIsWaypoint}); RET and its pointer-authenticated forms end a block as
 * {@link WaypointKind#INDIRECT_BRANCH} with {@link Block#call()} {@link io.armtrace.trace.CallKind#RETURN}.
 *
 * <p>Block addresses are aligned to the state first (bit 0 of a T32 address, bits 1:0 of an A32
 * address are ignored), so a caller that passes an address with the Thumb bit still gets the block.
 *
 * <p>Note that exception-generating instructions (SVC, BKPT, UDF, SMC, HVC) end a block as
 * {@link WaypointKind#EXCEPTION_CALL}: the protocols trace the exception they raise with an exception
 * packet, not with an atom, and the flow decoder decides how to account for them.
 *
 * <p>IT state is not carried across blocks: every block is walked starting with IT state 0 (a block is
 * identified by its address and ISA alone). Inside a block the walker follows IT instructions, so a
 * waypoint at the end of an IT block that started in the same block reports the IT condition; a block
 * entered in the middle of an IT block (for example by an exception return) reports its instructions
 * as unconditional. The flow decoders take the execution outcome from the trace atoms, not from here.
 *
 * <p>The cache is an open-addressing table keyed by (address, ISA). It starts small and doubles as the
 * code actually executed grows, so that a small working set (a loop, a kernel's hot path) stays in the
 * processor's caches; when it holds the configured number of blocks it is cleared and refilled, so
 * memory never grows with the trace. A cache hit allocates nothing.
 *
 * <p>Most lookups ask for the block that follows the previous one: at its next address (the waypoint not
 * taken, or a block that stopped for another reason) or at its direct branch's target. {@link #next(Block)}
 * and {@link #taken(Block)} answer those from a link kept on the previous block, set by their first call,
 * so that the common case costs no hash and no probe of a table much larger than the processor's caches.
 * {@link #indirect(Block, long, Isa)} does the same for where an indirect branch went last time (a return
 * to the same caller, a loop's call through the same pointer), checking the address first.
 * A cleared cache drops every link (they are stamped with the cache's epoch), so a link never leads to a
 * block walked before an image change.
 * Blocks are immutable and may be kept by callers. A walker is not thread-safe: give each decoding
 * thread its own walker (and its own {@link MemoryImage#copy()}).
 */
public final class CodeWalker {
    /**
     * Default number of blocks the cache holds before it is cleared: 128 K, the blocks of about 2.5 MB of executed
     * code (sqlite-mix's 1.92 MB are 96,500 blocks). At 32 K that program's decode cleared the cache 73 times and
     * walked 2.4 million blocks again, and every clear made the dropped blocks garbage that had lived long enough
     * to be copied into the old generation; at 128 K its ETMv3 decode took 11% less time and half the peak memory
     * (docs/performance.md, "The decoded-block cache's size"). A smaller program's table never grows that far.
     */
    public static final int DEFAULT_CACHE_BLOCKS = 1 << 17;

    private final MemoryImage memory;
    private final InstructionClassifier classifier;
    private final boolean isbIsWaypoint;
    private final boolean dataBarriersAreWaypoints;
    private final boolean waitsAreWaypoints;
    private final int maxBytes;

    /** Initial number of table slots; the table doubles up to {@link #maxCapacity}. */
    private static final int INITIAL_CAPACITY = 256;

    private long[] keys;
    private Block[] blocks;
    private int mask;
    private int shift;
    private final int maxCapacity;
    private final int maxEntries;
    private int entries;
    private long hits;
    private long misses;
    private long clears;
    private long linkHits;
    /** Counts {@link #clearCache()}: links stamped with an older epoch are stale. */
    private int epoch;

    private Insn cur = new Insn();
    private Insn prev = new Insn();
    private final int[] offsetScratch;

    /** Everything a walker's blocks depend on besides its memory: the key of {@link #on}. */
    private record Kind(Profile profile, boolean isbIsWaypoint, boolean dataBarriersAreWaypoints,
                        boolean waitsAreWaypoints, int maxBytes, int cacheBlocks) {
    }

    /**
     * A walker of {@code memory} built as the full constructor's, with a classifier of {@code profile}: on a
     * {@link MemoryImage#keeping()} copy the one an earlier decoder on the same copy built with the same arguments,
     * with every block it walked (a source's pieces decoded one after the other on one thread walk each block once,
     * not once a piece); on any other memory a new one.
     */
    public static CodeWalker on(MemoryImage memory, Profile profile, boolean isbIsWaypoint,
            boolean dataBarriersAreWaypoints, boolean waitsAreWaypoints, int maxBytes, int cacheBlocks) {
        return memory.kept(new Kind(profile, isbIsWaypoint, dataBarriersAreWaypoints, waitsAreWaypoints, maxBytes,
                cacheBlocks), m -> new CodeWalker(m, new InstructionClassifier(profile), isbIsWaypoint,
                dataBarriersAreWaypoints, waitsAreWaypoints, maxBytes, cacheBlocks));
    }

    /**
     * @param memory        the program image to walk
     * @param classifier    classifier for the traced core's profile
     * @param isbIsWaypoint true if ISB ends a block (PFT), false otherwise
     * @param maxBytes      the most bytes one block may cover (at least 4); a longer run of straight code
     *                      ends with {@link Block.End#LIMIT} and continues in the next block
     */
    public CodeWalker(MemoryImage memory, InstructionClassifier classifier, boolean isbIsWaypoint, int maxBytes) {
        this(memory, classifier, isbIsWaypoint, false, maxBytes, DEFAULT_CACHE_BLOCKS);
    }

    /** As the four-argument constructor, with the number of blocks the cache holds before it is cleared. */
    public CodeWalker(MemoryImage memory, InstructionClassifier classifier, boolean isbIsWaypoint, int maxBytes,
            int cacheBlocks) {
        this(memory, classifier, isbIsWaypoint, false, maxBytes, cacheBlocks);
    }

    /**
     * The full constructor.
     *
     * @param dataBarriersAreWaypoints true if DMB and DSB end a block (PFT with ETMCCER bit 24 set)
     */
    public CodeWalker(MemoryImage memory, InstructionClassifier classifier, boolean isbIsWaypoint,
            boolean dataBarriersAreWaypoints, int maxBytes, int cacheBlocks) {
        this(memory, classifier, isbIsWaypoint, dataBarriersAreWaypoints, false, maxBytes, cacheBlocks);
    }

    /**
     * As the full constructor, for ETMv4 and ETE: {@code waitsAreWaypoints} makes WFI, WFE, WFIT and
     * WFET end a block ({@link Insn#waitForInterruptOrEvent}; P0 instructions when TRCIDR2.WFXMODE is 1,
     * ETMv4.3 and later). Such a block, like one ending at a DMB or DSB, ends with kind
     * {@link WaypointKind#BARRIER}.
     */
    public CodeWalker(MemoryImage memory, InstructionClassifier classifier, boolean isbIsWaypoint,
            boolean dataBarriersAreWaypoints, boolean waitsAreWaypoints, int maxBytes, int cacheBlocks) {
        if (maxBytes < 4) {
            throw new IllegalArgumentException("maxBytes must be at least 4, was " + maxBytes);
        }
        if (cacheBlocks < 1) {
            throw new IllegalArgumentException("cacheBlocks must be at least 1, was " + cacheBlocks);
        }
        this.memory = memory;
        this.classifier = classifier;
        this.isbIsWaypoint = isbIsWaypoint;
        this.dataBarriersAreWaypoints = dataBarriersAreWaypoints;
        this.waitsAreWaypoints = waitsAreWaypoints;
        this.maxBytes = maxBytes;
        int capacity = Integer.highestOneBit(Math.min(cacheBlocks, 1 << 28) * 2 - 1) << 1; // >= 2 * blocks
        this.maxCapacity = capacity;
        this.maxEntries = Math.min(cacheBlocks, capacity - 1);
        allocate(Math.min(capacity, INITIAL_CAPACITY));
        this.offsetScratch = new int[maxBytes / 2 + 1];
    }

    public MemoryImage memory() {
        return memory;
    }

    public InstructionClassifier classifier() {
        return classifier;
    }

    public boolean isbIsWaypoint() {
        return isbIsWaypoint;
    }

    public boolean dataBarriersAreWaypoints() {
        return dataBarriersAreWaypoints;
    }

    public boolean waitsAreWaypoints() {
        return waitsAreWaypoints;
    }

    public int maxBytes() {
        return maxBytes;
    }

    /** The block that starts at {@code address} in state {@code isa}, from the cache or walked now. */
    public Block block(long address, Isa isa) {
        address &= -isa.alignment();
        long key = address << 2 | isa.ordinal();
        int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift) & mask;
        Block b;
        while ((b = blocks[i]) != null) {
            // compared on the block itself, which the caller reads next anyway: one memory access
            // fewer than the key array (the table is larger than the L1 cache for real code)
            if (b.start() == address && b.isa() == isa) {
                hits++;
                return b;
            }
            i = (i + 1) & mask;
        }
        misses++;
        b = walk(address, isa);
        if (entries >= maxEntries) {
            clearCache();
            clears++;
            insert(key, b);
        } else if (2 * (entries + 1) > keys.length && keys.length < maxCapacity) {
            grow();
            insert(key, b);
        } else {
            keys[i] = key;
            blocks[i] = b;
            entries++;
        }
        return b;
    }

    /**
     * The block at {@code from}'s {@link Block#nextAddress()} in its state: where execution goes on when
     * its waypoint is not taken or it ended for another reason. The same block as
     * {@code block(from.nextAddress(), from.isa())}, from {@code from}'s link after the first call.
     */
    public Block next(Block from) {
        Block b = from.nextLink;
        if (b != null && from.linkEpoch == epoch) {
            linkHits++;
            return b;
        }
        b = block(from.nextAddress(), from.isa());
        stamp(from);
        from.nextLink = b;
        return b;
    }

    /**
     * The block at {@code from}'s direct branch target in the target's state (a block whose
     * {@link Block#target()} is not -1): the same block as {@code block(from.target(), from.targetIsa())},
     * from {@code from}'s link after the first call.
     */
    public Block taken(Block from) {
        Block b = from.takenLink;
        if (b != null && from.linkEpoch == epoch) {
            linkHits++;
            return b;
        }
        b = block(from.target(), from.targetIsa());
        stamp(from);
        from.takenLink = b;
        return b;
    }

    /**
     * The block at {@code address} in state {@code isa}, where {@code from}'s indirect branch (or anything
     * else that left it for an address the trace gave) went: the same block as {@code block(address, isa)},
     * from {@code from}'s link when it went to the same place the last time.
     */
    public Block indirect(Block from, long address, Isa isa) {
        Block b = from.indirectLink;
        if (b != null && b.start() == (address & -isa.alignment()) && b.isa() == isa && from.linkEpoch == epoch) {
            linkHits++;
            return b;
        }
        b = block(address, isa);
        stamp(from);
        from.indirectLink = b;
        return b;
    }

    /** Drops {@code b}'s links if they are from before the cache was last cleared. */
    private void stamp(Block b) {
        if (b.linkEpoch != epoch) {
            b.nextLink = null;
            b.takenLink = null;
            b.indirectLink = null;
            b.linkEpoch = epoch;
        }
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        blocks = new Block[capacity];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
        entries = 0;
    }

    private void insert(long key, Block b) {
        int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift) & mask;
        while (blocks[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        blocks[i] = b;
        entries++;
    }

    /** Doubles the table (rare: at most log2(capacity / INITIAL_CAPACITY) times per walker). */
    private void grow() {
        long[] oldKeys = keys;
        Block[] oldBlocks = blocks;
        allocate(Math.min(keys.length * 2, maxCapacity));
        for (int j = 0; j < oldBlocks.length; j++) {
            if (oldBlocks[j] != null) {
                insert(oldKeys[j], oldBlocks[j]);
            }
        }
    }

    /** Forgets every cached block (for example after the image changed); the table keeps its size. */
    public void clearCache() {
        java.util.Arrays.fill(blocks, null);
        entries = 0;
        epoch++;
    }

    public int cachedBlocks() {
        return entries;
    }

    public long cacheHits() {
        return hits;
    }

    public long cacheMisses() {
        return misses;
    }

    /** Lookups that {@link #next(Block)}, {@link #taken(Block)} and {@link #indirect} answered from a link (not counted as hits). */
    public long linkHits() {
        return linkHits;
    }

    /** How many times the cache was full and was cleared. */
    public long cacheClears() {
        return clears;
    }

    private boolean endsBlock(Insn insn) {
        return insn.writesPc() || (isbIsWaypoint && insn.kind == WaypointKind.BARRIER)
                || (dataBarriersAreWaypoints && insn.dataBarrier)
                || (waitsAreWaypoints && insn.waitForInterruptOrEvent);
    }

    private Block walk(long address, Isa isa) {
        if (isa == Isa.JAZELLE || ((isa == Isa.A32 || isa == Isa.A64) && classifier.profile() == Profile.M)) {
            return new Block(address, isa, 0, null, isa.alignment(), Block.End.UNSUPPORTED, -1, prev);
        }
        long a = address;
        int n = 0;
        int bytes = 0;
        int it = 0;
        boolean mixed = false;
        int firstSize = 0;
        Block.End end;
        long missing = -1;
        int[] offs = offsetScratch;
        while (true) {
            Insn c = cur;
            if (!classifier.classify(memory, a, isa, it, c)) {
                end = Block.End.NO_IMAGE;
                missing = a;
                break;
            }
            if (bytes + c.size > maxBytes) {
                end = Block.End.LIMIT;
                break;
            }
            if (n == 0) {
                firstSize = c.size;
            } else if (c.size != firstSize) {
                mixed = true;
            }
            offs[n++] = bytes;
            bytes += c.size;
            cur = prev;
            prev = c;
            if (endsBlock(c)) {
                end = Block.End.WAYPOINT;
                break;
            }
            it = c.itStateAfter;
            a += c.size;
        }
        offs[n] = bytes; // the block's length after the last offset: the element stream's InstructionSizes form
        int[] offsets = mixed ? java.util.Arrays.copyOf(offs, n + 1) : null;
        return new Block(address, isa, n, offsets, n == 0 ? isa.alignment() : firstSize, end, missing, prev);
    }
}
