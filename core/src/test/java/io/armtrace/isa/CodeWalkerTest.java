package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import org.junit.jupiter.api.Test;

class CodeWalkerTest {

    static byte[] words(int... w) {
        byte[] b = new byte[w.length * 4];
        for (int i = 0; i < w.length; i++) {
            for (int k = 0; k < 4; k++) {
                b[4 * i + k] = (byte) (w[i] >>> (8 * k));
            }
        }
        return b;
    }

    static byte[] halves(int... h) {
        byte[] b = new byte[h.length * 2];
        for (int i = 0; i < h.length; i++) {
            b[2 * i] = (byte) h[i];
            b[2 * i + 1] = (byte) (h[i] >>> 8);
        }
        return b;
    }

    static CodeWalker walker(MemoryImage m, Profile p, boolean isb, int max) {
        return new CodeWalker(m, new InstructionClassifier(p), isb, max);
    }

    /** {@code n} A32 instructions {@code b .} from address 0: {@code n} blocks of one instruction each. */
    private static MemoryImage branchesToThemselves(int n) {
        int[] code = new int[n];
        java.util.Arrays.fill(code, 0xEAFFFFFE); // b .
        return new MemoryImage().add(0, words(code), "c");
    }

    @Test
    void a32BlockEndsAtFirstWaypoint() {
        MemoryImage m = new MemoryImage().add(0x8000, words(
                0xE1A00000, // nop
                0xE2800001, // add r0, r0, #1
                0x0A000002, // beq 0x8018 (0x8008 + 8 + 2 * 4)
                0xE12FFF1E), "code"); // bx lr
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b = w.block(0x8000, Isa.A32);
        assertThat(b.end()).isEqualTo(Block.End.WAYPOINT);
        assertThat(b.count()).isEqualTo(3);
        assertThat(b.lastAddress()).isEqualTo(0x8008);
        assertThat(b.lastSize()).isEqualTo(4);
        assertThat(b.nextAddress()).isEqualTo(0x800C);
        assertThat(b.kind()).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(b.target()).isEqualTo(0x8018);
        assertThat(b.cond()).isEqualTo(0);
        assertThat(b.conditional()).isTrue();
        assertThat(b.opcode()).isEqualTo(0x0A000002);
        assertThat(b.addressOf(0)).isEqualTo(0x8000);
        assertThat(b.addressOf(2)).isEqualTo(0x8008);
        assertThat(b.sizeOf(2)).isEqualTo(4);
        assertThat(b.indexOf(0x8004)).isEqualTo(1);
        assertThat(b.indexOf(0x8006)).isEqualTo(-1);
        assertThat(b.indexOf(0x800C)).isEqualTo(-1);
        assertThat(b.countBefore(0x8000)).isEqualTo(0);
        assertThat(b.countBefore(0x8008)).isEqualTo(2);
        assertThat(b.countBefore(0x9000)).isEqualTo(3);

        Block next = w.block(b.nextAddress(), Isa.A32);
        assertThat(next.count()).isEqualTo(1);
        assertThat(next.kind()).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(next.target()).isEqualTo(-1);
    }

    @Test
    void cacheHitReturnsSameBlockWithoutWalking() {
        MemoryImage m = new MemoryImage().add(0x8000, words(0xE1A00000, 0xEAFFFFFD), "code");
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b1 = w.block(0x8000, Isa.A32);
        Block b2 = w.block(0x8000, Isa.A32);
        assertThat(b2).isSameAs(b1);
        assertThat(w.cacheHits()).isEqualTo(1);
        assertThat(w.cacheMisses()).isEqualTo(1);
        // the same address in another state is another block
        Block t = w.block(0x8000, Isa.T32);
        assertThat(t).isNotSameAs(b1);
        assertThat(t.isa()).isEqualTo(Isa.T32);
    }

    @Test
    void t32MixedSizesAndBlxChangesState() {
        MemoryImage m = new MemoryImage().add(0x1000, halves(
                0xB510,         // 0x1000 push {r4, lr}
                0xF8DF, 0x0004, // 0x1002 ldr.w r0, [pc, #4]
                0x2001,         // 0x1006 movs r0, #1
                0xF000, 0xE800), "code"); // 0x1008 blx 0x100c (Align(0x100c,4))
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b = w.block(0x1000, Isa.T32);
        assertThat(b.count()).isEqualTo(4);
        assertThat(b.addressOf(0)).isEqualTo(0x1000);
        assertThat(b.addressOf(1)).isEqualTo(0x1002);
        assertThat(b.addressOf(2)).isEqualTo(0x1006);
        assertThat(b.addressOf(3)).isEqualTo(0x1008);
        assertThat(b.sizeOf(0)).isEqualTo(2);
        assertThat(b.sizeOf(1)).isEqualTo(4);
        assertThat(b.sizeOf(2)).isEqualTo(2);
        assertThat(b.sizeOf(3)).isEqualTo(4);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.sizeOf(4))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(b.indexOf(0x1006)).isEqualTo(2);
        assertThat(b.indexOf(0x1004)).isEqualTo(-1);
        assertThat(b.countBefore(0x1006)).isEqualTo(2);
        assertThat(b.countBefore(0x1004)).isEqualTo(2);
        assertThat(b.lastAddress()).isEqualTo(0x1008);
        assertThat(b.lastSize()).isEqualTo(4);
        assertThat(b.byteLength()).isEqualTo(12);
        assertThat(b.kind()).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(b.link()).isTrue();
        assertThat(b.target()).isEqualTo(0x100C);
        assertThat(b.targetIsa()).isEqualTo(Isa.A32);
        assertThat(b.returnAddress()).isEqualTo(0x100C);
    }

    @Test
    void noImageRecordsMissingAddress() {
        MemoryImage m = new MemoryImage().add(0x2000, halves(0x2001, 0x2102, 0xF000), "code"); // 32-bit cut off
        CodeWalker w = walker(m, Profile.M, false, 4096);
        Block b = w.block(0x2000, Isa.T32);
        assertThat(b.end()).isEqualTo(Block.End.NO_IMAGE);
        assertThat(b.count()).isEqualTo(2);
        assertThat(b.missingAddress()).isEqualTo(0x2004);
        assertThat(b.nextAddress()).isEqualTo(0x2004);
        assertThat(b.kind()).isEqualTo(WaypointKind.NONE);

        Block empty = w.block(0x3000, Isa.T32);
        assertThat(empty.end()).isEqualTo(Block.End.NO_IMAGE);
        assertThat(empty.count()).isZero();
        assertThat(empty.missingAddress()).isEqualTo(0x3000);
        assertThat(empty.nextAddress()).isEqualTo(0x3000);
    }

    @Test
    void limitStopsLongStraightCode() {
        int[] nops = new int[100];
        java.util.Arrays.fill(nops, 0xE1A00000);
        MemoryImage m = new MemoryImage().add(0, words(nops), "nops");
        CodeWalker w = walker(m, Profile.AR, false, 64);
        Block b = w.block(0, Isa.A32);
        assertThat(b.end()).isEqualTo(Block.End.LIMIT);
        assertThat(b.count()).isEqualTo(16);
        assertThat(b.byteLength()).isEqualTo(64);
        assertThat(w.block(b.nextAddress(), Isa.A32).start()).isEqualTo(64);

        // T32: a 32-bit instruction that would cross the limit is left for the next block
        MemoryImage t = new MemoryImage().add(0, halves(0xBF00, 0xBF00, 0xBF00, 0xF3AF, 0x8000, 0xE7FE), "t");
        Block tb = walker(t, Profile.AR, false, 8).block(0, Isa.T32);
        assertThat(tb.end()).isEqualTo(Block.End.LIMIT);
        assertThat(tb.count()).isEqualTo(3);
        assertThat(tb.nextAddress()).isEqualTo(6);
    }

    @Test
    void isbIsAWaypointOnlyWhenAsked() {
        MemoryImage m = new MemoryImage().add(0, words(0xE1A00000, 0xF57FF06F, 0xE1A00000, 0xEAFFFFFB), "c");
        Block pft = walker(m, Profile.AR, true, 4096).block(0, Isa.A32);
        assertThat(pft.count()).isEqualTo(2);
        assertThat(pft.kind()).isEqualTo(WaypointKind.BARRIER);
        Block etm = walker(m, Profile.AR, false, 4096).block(0, Isa.A32);
        assertThat(etm.count()).isEqualTo(4);
        assertThat(etm.kind()).isEqualTo(WaypointKind.DIRECT_BRANCH);
        assertThat(etm.target()).isEqualTo(0);
    }

    @Test
    void dataBarriersEndBlocksOnlyWhenAsked() {
        MemoryImage m = new MemoryImage().add(0, words(0xE1A00000, 0xF57FF05B, 0xE1A00000, 0xEAFFFFFB), "c");
        InstructionClassifier c = new InstructionClassifier(Profile.AR);
        Block b = new CodeWalker(m, c, true, true, 4096, 16).block(0, Isa.A32);
        assertThat(b.count()).isEqualTo(2);
        assertThat(b.end()).isEqualTo(Block.End.WAYPOINT);
        assertThat(b.kind()).isEqualTo(WaypointKind.BARRIER);
        assertThat(new CodeWalker(m, c, true, false, 4096, 16).block(0, Isa.A32).count()).isEqualTo(4);
    }

    @Test
    void addressesAreAlignedToTheState() {
        MemoryImage m = new MemoryImage().add(0x100, halves(0x2001, 0x4770), "c");
        CodeWalker w = walker(m, Profile.M, false, 4096);
        Block b = w.block(0x101, Isa.T32); // with the Thumb bit
        assertThat(b.start()).isEqualTo(0x100);
        assertThat(b.count()).isEqualTo(2);
        assertThat(w.block(0x100, Isa.T32)).isSameAs(b);
    }

    @Test
    void itConditionInsideBlock() {
        MemoryImage m = new MemoryImage().add(0, halves(
                0x2800, // cmp r0, #0
                0xBF08, // it eq
                0x4770, // bxeq lr
                0x2001), "c");
        Block b = walker(m, Profile.M, false, 4096).block(0, Isa.T32);
        assertThat(b.count()).isEqualTo(3);
        assertThat(b.kind()).isEqualTo(WaypointKind.INDIRECT_BRANCH);
        assertThat(b.cond()).isEqualTo(0);
        assertThat(b.conditional()).isTrue();
        // entered after the IT instruction, the walker does not know the IT state
        Block mid = walker(m, Profile.M, false, 4096).block(4, Isa.T32);
        assertThat(mid.conditional()).isFalse();
    }

    @Test
    void unsupportedStates() {
        MemoryImage m = new MemoryImage().add(0, words(0xE1A00000), "c");
        assertThat(walker(m, Profile.M, false, 4096).block(0, Isa.A32).end()).isEqualTo(Block.End.UNSUPPORTED);
        Block j = walker(m, Profile.AR, false, 4096).block(0, Isa.JAZELLE);
        assertThat(j.end()).isEqualTo(Block.End.UNSUPPORTED);
        assertThat(j.count()).isZero();
    }

    @Test
    void successorsAreTheBlocksAtTheirAddressesFoundThroughLinks() {
        MemoryImage m = new MemoryImage().add(0x8000, words(
                0xE1A00000, // 0x8000 nop
                0x0A000002, // 0x8004 beq 0x8014
                0xE12FFF1E, // 0x8008 bx lr
                0xE1A00000, // 0x800C nop
                0xE1A00000, // 0x8010 nop
                0xEAFFFFF9), "code"); // 0x8014 b 0x8000
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b = w.block(0x8000, Isa.A32);
        Block taken = w.taken(b);
        Block fall = w.next(b);
        assertThat(taken).isSameAs(w.block(0x8014, Isa.A32));
        assertThat(fall).isSameAs(w.block(0x8008, Isa.A32));
        assertThat(w.taken(taken)).isSameAs(b);
        // once linked: no lookup, counted as a link hit, the same block
        long hits = w.cacheHits();
        long misses = w.cacheMisses();
        long links = w.linkHits();
        assertThat(w.taken(b)).isSameAs(taken);
        assertThat(w.next(b)).isSameAs(fall);
        assertThat(w.linkHits()).isEqualTo(links + 2);
        assertThat(w.cacheHits()).isEqualTo(hits);
        assertThat(w.cacheMisses()).isEqualTo(misses);
        // an indirect branch: the block where it went, also when it goes elsewhere the next time
        assertThat(w.indirect(fall, 0x800C, Isa.A32)).isSameAs(w.block(0x800C, Isa.A32));
        assertThat(w.indirect(fall, 0x800C, Isa.A32)).isSameAs(w.block(0x800C, Isa.A32));
        assertThat(w.indirect(fall, 0x8000, Isa.A32)).isSameAs(b);
        assertThat(w.indirect(fall, 0x8001, Isa.T32).isa()).isEqualTo(Isa.T32);
        // after the table is emptied the links lead to no block it let go of: the successor is walked again
        w.clearCache();
        Block again = w.taken(b);
        assertThat(again).isNotSameAs(taken).isSameAs(w.block(0x8014, Isa.A32));
        assertThat(again.start()).isEqualTo(0x8014);
        assertThat(w.indirect(fall, 0x8000, Isa.A32)).isNotSameAs(b).isSameAs(w.block(0x8000, Isa.A32));
    }

    @Test
    void cacheIsBoundedAndClearedWhenFull() {
        int n = 1000;
        MemoryImage m = branchesToThemselves(n);
        CodeWalker w = new CodeWalker(m, new InstructionClassifier(Profile.AR), false, 4096, 64);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < n; i++) {
                Block b = w.block(4L * i, Isa.A32);
                assertThat(b.start()).isEqualTo(4L * i);
                assertThat(b.target()).isEqualTo(4L * i);
                assertThat(w.cachedBlocks()).isLessThanOrEqualTo(64);
            }
        }
        assertThat(w.cacheClears()).isGreaterThan(0);
        // recently walked blocks still hit
        long hits = w.cacheHits();
        w.block(4L * (n - 1), Isa.A32);
        assertThat(w.cacheHits()).isEqualTo(hits + 1);
    }

    /**
     * The decoders of one thread's pieces, one after the other, share a walker through the thread's keeping copy of
     * the memory: the second finds the blocks the first walked. Other arguments, or memory that keeps nothing, give
     * walkers of their own.
     */
    @Test
    void walkersOnAKeepingCopyOfTheMemoryKeepTheirBlocksForTheNextDecoder() {
        MemoryImage memory = branchesToThemselves(1000);
        MemoryImage keeping = memory.keeping();
        CodeWalker first = CodeWalker.on(keeping, Profile.AR, true, false, false, 4096, 1 << 10);
        for (int i = 0; i < 1000; i++) {
            first.block(4L * i, Isa.A32);
        }
        CodeWalker next = CodeWalker.on(keeping, Profile.AR, true, false, false, 4096, 1 << 10);
        assertThat(next).isSameAs(first);
        long misses = next.cacheMisses();
        for (int i = 0; i < 1000; i++) {
            assertThat(next.block(4L * i, Isa.A32).target()).isEqualTo(4L * i);
        }
        assertThat(next.cacheMisses()).isEqualTo(misses);

        assertThat(CodeWalker.on(keeping, Profile.AR, false, false, false, 4096, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping, Profile.M, true, false, false, 4096, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping, Profile.AR, true, true, false, 4096, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping, Profile.AR, true, false, true, 4096, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping, Profile.AR, true, false, false, 64, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping, Profile.AR, true, false, false, 4096, 1 << 11)).isNotSameAs(first);
        assertThat(CodeWalker.on(keeping.keeping(), Profile.AR, true, false, false, 4096, 1 << 10)).isNotSameAs(first);
        assertThat(CodeWalker.on(memory, Profile.AR, true, false, false, 4096, 1 << 10))
                .isNotSameAs(CodeWalker.on(memory, Profile.AR, true, false, false, 4096, 1 << 10));

        // new code in the memory: the next decoder walks it afresh
        keeping.add(0, words(0xE1A00000, 0xEAFFFFFE), "patch"); // nop; b .
        CodeWalker after = CodeWalker.on(keeping, Profile.AR, true, false, false, 4096, 1 << 10);
        assertThat(after).isNotSameAs(first);
        assertThat(after.block(0, Isa.A32).count()).isEqualTo(2);
    }

    /**
     * A large program's executed code fits the default cache whole: 100,000 blocks (sqlite-mix, 1.92 MB of code, is
     * 96,500) are walked once each and never cleared, so a second pass finds every one.
     */
    @Test
    void theDefaultCacheHoldsALargeProgramsBlocks() {
        int n = 100_000;
        CodeWalker w = walker(branchesToThemselves(n), Profile.AR, false, 4096);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                w.block(4L * i, Isa.A32);
            }
        }
        assertThat(w.cacheClears()).isZero();
        assertThat(w.cacheMisses()).isEqualTo(n);
        assertThat(w.cacheHits()).isEqualTo(n);
    }

    @Test
    void cacheGrowsWithTheCodeWithoutLosingBlocks() {
        int n = 5000; // more blocks than the table's first size: it doubles several times
        MemoryImage m = branchesToThemselves(n);
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block[] first = new Block[n];
        for (int i = 0; i < n; i++) {
            first[i] = w.block(4L * i, Isa.A32);
        }
        assertThat(w.cachedBlocks()).isEqualTo(n);
        for (int i = 0; i < n; i++) {
            assertThat(w.block(4L * i, Isa.A32)).isSameAs(first[i]);
        }
        assertThat(w.cacheMisses()).isEqualTo(n);
        assertThat(w.cacheHits()).isEqualTo(n);
        assertThat(w.cacheClears()).isZero();
    }

    @Test
    void linksToTheFollowingBlocksAnswerAsTheTableDoes() {
        MemoryImage m = new MemoryImage().add(0x8000, words(
                0xE1A00000, // nop
                0x0A000001, // beq 0x8010
                0xFA000000, // blx 0x8010 (to T32: H = 0)
                0xE12FFF1E, // bx lr
                0x47704770), "code"); // T32 at 0x8010: bx lr
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b = w.block(0x8000, Isa.A32);
        assertThat(b.target()).isEqualTo(0x8010);

        Block notTaken = w.next(b);
        Block taken = w.taken(b);
        assertThat(notTaken).isSameAs(w.block(0x8008, Isa.A32));
        assertThat(taken).isSameAs(w.block(0x8010, Isa.A32));
        assertThat(notTaken.kind()).isEqualTo(WaypointKind.DIRECT_BRANCH);
        // BLX immediate changes state: its taken successor is the T32 block, not the A32 one at that address
        Block thumb = w.taken(notTaken);
        assertThat(thumb.isa()).isEqualTo(Isa.T32);
        assertThat(thumb).isSameAs(w.block(0x8010, Isa.T32)).isNotSameAs(taken);
        assertThat(w.next(notTaken)).isSameAs(w.block(0x800C, Isa.A32));

        long hits = w.cacheHits();
        long misses = w.cacheMisses();
        for (int i = 0; i < 10; i++) {
            assertThat(w.next(b)).isSameAs(notTaken);
            assertThat(w.taken(b)).isSameAs(taken);
            assertThat(w.taken(notTaken)).isSameAs(thumb);
        }
        assertThat(w.linkHits()).as("repeated successor lookups answered by links").isEqualTo(30);
        assertThat(w.cacheHits()).isEqualTo(hits);
        assertThat(w.cacheMisses()).isEqualTo(misses);
    }

    @Test
    void theIndirectLinkIsCheckedAgainstTheAddress() {
        MemoryImage m = new MemoryImage().add(0x8000, words(
                0xE12FFF1E, // bx lr
                0xE1A00000, // nop
                0xE12FFF1E, // bx lr
                0xE12FFF1E), "code"); // bx lr
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block ret = w.block(0x8000, Isa.A32);
        Block a = w.indirect(ret, 0x8004, Isa.A32);
        assertThat(a).isSameAs(w.block(0x8004, Isa.A32));
        assertThat(w.indirect(ret, 0x8004, Isa.A32)).isSameAs(a);
        assertThat(w.linkHits()).isEqualTo(1);
        // another address, or the same address in another state, is looked up (and becomes the link)
        Block c = w.indirect(ret, 0x800C, Isa.A32);
        assertThat(c.start()).isEqualTo(0x800C);
        assertThat(c).isSameAs(w.block(0x800C, Isa.A32));
        Block t = w.indirect(ret, 0x800D, Isa.T32);
        assertThat(t.isa()).isEqualTo(Isa.T32);
        assertThat(t.start()).isEqualTo(0x800C);
        assertThat(w.indirect(ret, 0x800C, Isa.T32)).isSameAs(t);
        assertThat(w.indirect(ret, 0x8004, Isa.A32)).isSameAs(a);
        assertThat(w.linkHits()).isEqualTo(2);
    }

    @Test
    void clearingTheCacheDropsTheLinks() {
        byte[] code = words(
                0xEA000000, // b 0x8008
                0xE1A00000, // nop
                0xE12FFF1E, // bx lr
                0xE12FFF1E); // bx lr
        MemoryImage m = new MemoryImage().add(0x8000, java.nio.ByteBuffer.wrap(code), "code");
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        Block b = w.block(0x8000, Isa.A32);
        assertThat(w.taken(b).count()).isEqualTo(1);
        assertThat(w.next(b).count()).isEqualTo(2);
        // the image changes: the instruction at the branch target becomes a nop
        System.arraycopy(words(0xE1A00000), 0, code, 8, 4);
        assertThat(w.taken(b).count()).as("still linked until the cache is cleared").isEqualTo(1);
        w.clearCache();
        Block target = w.taken(b);
        assertThat(target.count()).isEqualTo(2);
        assertThat(target.lastAddress()).isEqualTo(0x800C);
        assertThat(w.next(b).count()).isEqualTo(3);
        assertThat(w.taken(b)).isSameAs(target).isSameAs(w.block(0x8008, Isa.A32));
    }

    @Test
    void cacheHitDoesNotAllocate() {
        MemoryImage m = new MemoryImage().add(0x8000, words(0xE1A00000, 0xEAFFFFFD), "code");
        CodeWalker w = walker(m, Profile.AR, false, 4096);
        w.block(0x8000, Isa.A32);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long sum = 0;
        for (int i = 0; i < 20_000; i++) { // warm up
            sum += w.block(0x8000, Isa.A32).count();
        }
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 100_000; i++) {
            sum += w.block(0x8000, Isa.A32).count();
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertThat(sum).isEqualTo(240_000);
        assertThat(allocated).as("bytes allocated by 100000 cache hits").isLessThan(10_000);
    }

    @Test
    void randomBytesNeverBreakTheWalker() {
        java.util.Random rnd = new java.util.Random(7);
        byte[] junk = new byte[1 << 13];
        rnd.nextBytes(junk);
        MemoryImage m = new MemoryImage().add(0x4000, junk, "junk");
        for (Profile p : Profile.values()) {
            for (Isa isa : new Isa[] {Isa.A32, Isa.T32, Isa.THUMB_EE, Isa.JAZELLE}) {
                CodeWalker w = new CodeWalker(m, new InstructionClassifier(p), true, true, 256, 512);
                for (long a = 0x3F00; a < 0x4000 + junk.length + 0x100; a += isa.alignment()) {
                    Block b = w.block(a, isa);
                    assertThat(b.byteLength()).isBetween(0, 256);
                    for (int i = 1; i < b.count(); i++) {
                        assertThat(b.addressOf(i) - b.addressOf(i - 1)).isIn(2L, 4L);
                        assertThat((long) b.sizeOf(i - 1)).isEqualTo(b.addressOf(i) - b.addressOf(i - 1));
                    }
                    if (b.count() > 0) {
                        assertThat(b.addressOf(b.count() - 1)).isEqualTo(b.lastAddress());
                        assertThat(b.sizeOf(b.count() - 1)).isEqualTo(b.lastSize());
                        assertThat(b.countBefore(b.nextAddress())).isEqualTo(b.count());
                    }
                    if (b.end() == Block.End.NO_IMAGE) {
                        assertThat(m.contains(b.missingAddress(), 4)).isFalse(); // at most 4 bytes are needed
                    }
                }
                assertThat(w.cachedBlocks()).isLessThanOrEqualTo(512);
            }
        }
    }
}
