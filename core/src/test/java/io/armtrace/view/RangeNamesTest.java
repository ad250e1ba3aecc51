package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link RangeNames} (the symbol of a range line, found by page and stretch) against a search of the symbol table
 * itself ({@link SymbolTable#nameFor(long)}), for every halfword of linked programs with the cases objdump's naming
 * has (PLT and GOT, several symbols at one address, a section without symbols, gaps between sections), in address
 * order and in random order (the page cache's slots change hands), and for addresses across all 64 bits.
 */
class RangeNamesTest {
    private static final String[] FILES = {"names-a64.elf.gz", "elfs/workload-a9-thumb-neon-o2.elf.gz",
            "elfs/numeric-m4f-o2.elf.gz", "elfs/workload-arm926-arm-o0.elf.gz"};

    private static ProgramImage image(String name) throws IOException {
        InputStream raw = RangeNamesTest.class.getResourceAsStream("/isa/" + name);
        if (raw == null) {
            throw new IOException("no test resource isa/" + name);
        }
        try (InputStream in = new GZIPInputStream(raw)) {
            return ElfImage.load(in.readAllBytes(), name);
        }
    }

    /** What a range line says after its text for {@code address}: {@code "  <name"} and the symbol's address. */
    private static String expected(SymbolTable symbols, long address) {
        Symbol s = symbols.nameFor(address);
        return s == null ? "none" : "  <" + s.name() + " @" + Long.toHexString(s.address());
    }

    private static String actual(RangeNames names, long address) {
        int e = names.where(address);
        if (e == RangeNames.NO_SYMBOL) {
            return "none";
        }
        assertThat(e).as("entry of 0x%x", address).isNotEqualTo(RangeNames.NOT_IN_PLACE);
        return new String(names.name(e), 0, names.nameLength(e), StandardCharsets.US_ASCII) + " @"
                + Long.toHexString(names.symbolAddress(e));
    }

    @Test
    void everyAddressOfLinkedProgramsIsNamedAsTheSymbolTableNamesIt() throws IOException {
        SplittableRandom rnd = new SplittableRandom(0x5EED_2026_1127L);
        for (String file : FILES) {
            SymbolTable symbols = image(file).symbols();
            assertThat(symbols.isEmpty()).as(file).isFalse();
            long low = Long.MAX_VALUE;
            long high = 0;
            for (Symbol s : symbols.symbols()) {
                low = Math.min(low, s.address());
                high = Math.max(high, s.address() + s.size());
            }
            List<Long> addresses = new ArrayList<>();
            for (long a = Math.max(0, low - 0x2000); a < high + 0x2000; a += 2) {
                addresses.add(a);
            }
            RangeNames inOrder = new RangeNames(symbols);
            int differences = 0;
            for (long a : addresses) {
                if (!actual(inOrder, a).equals(expected(symbols, a)) && differences++ < 5) {
                    assertThat(actual(inOrder, a)).as("%s 0x%x in order", file, a).isEqualTo(expected(symbols, a));
                }
            }
            java.util.Collections.shuffle(addresses, new java.util.Random(rnd.nextLong()));
            RangeNames shuffled = new RangeNames(symbols);
            for (long a : addresses.subList(0, Math.min(addresses.size(), 200_000))) {
                if (!actual(shuffled, a).equals(expected(symbols, a)) && differences++ < 5) {
                    assertThat(actual(shuffled, a)).as("%s 0x%x shuffled", file, a).isEqualTo(expected(symbols, a));
                }
            }
            assertThat(differences).as(file).isZero();
            assertThat(addresses.size()).as(file).isGreaterThan(1000);
        }
    }

    @Test
    void addressesAcrossSixtyFourBitsAndPagesThatShareASlot() throws IOException {
        SymbolTable symbols = image(FILES[0]).symbols();
        List<Symbol> far = new ArrayList<>(symbols.symbols());
        // kernel-like symbols above 2^63 and at the very top, and many pages apart (more pages than slots)
        far.add(new Symbol("high_text", 0xffff_ffc0_0008_0000L, 0x4000, false));
        far.add(new Symbol("top", 0xffff_ffff_ffff_f000L, 0x1000, false));
        for (int i = 0; i < 3000; i++) {
            far.add(new Symbol("spread_" + i, 0x1000_0000L + i * 0x5000L, 0x100, false));
        }
        SymbolTable wide = new SymbolTable(far, new long[0], new byte[0]);
        RangeNames names = new RangeNames(wide);
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 300_000; i++) {
            long a = switch (rnd.nextInt(5)) {
                case 0 -> 0xffff_ffc0_0008_0000L + rnd.nextLong(0x8000) - 0x2000;
                case 1 -> -1L - rnd.nextLong(0x3000);
                case 2 -> 0x1000_0000L + rnd.nextLong(3000L * 0x5000);
                case 3 -> rnd.nextLong();
                default -> rnd.nextLong(1L << 32);
            };
            assertThat(actual(names, a)).as("0x%x", a).isEqualTo(expected(wide, a));
        }
    }

    @Test
    void namesThatAreNotAsciiOrTooLongAreLeftToTheTextPath() {
        String longName = "x".repeat(RangeNames.NAME_MAX + 1);
        SymbolTable symbols = new SymbolTable(List.of(new Symbol("plain", 0x1000, 0x100, false),
                new Symbol("très", 0x2000, 0x100, false), new Symbol(longName, 0x3000, 0x100, false)),
                new long[0], new byte[0]);
        RangeNames names = new RangeNames(symbols);
        assertThat(actual(names, 0x1010)).isEqualTo("  <plain @1000");
        assertThat(names.where(0x2010)).isEqualTo(RangeNames.NOT_IN_PLACE);
        assertThat(names.where(0x3010)).isEqualTo(RangeNames.NOT_IN_PLACE);
        assertThat(actual(names, 0x1020)).isEqualTo("  <plain @1000");
    }
}
