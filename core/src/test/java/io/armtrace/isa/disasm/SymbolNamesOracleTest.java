package io.armtrace.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ElfImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.view.Symbolizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The names objdump gives addresses where the choice is not the nearest function: the section symbols of the
 * PLT and GOT sections, which objdump keeps (a call into a static glibc program's {@code .plt} reads
 * {@code <.plt+0x10>}, an ADRP of its {@code .got.plt} page {@code <.got.plt+0x18>}), and several symbols of
 * other sections at one address (a function before a label; between labels, absolute or not, the name), and
 * a listed address is named after a symbol of its own section, or after the section where it has none.
 * {@code tools/isa-oracle/names.s} holds each case; the table is objdump's output for the linked file, with
 * and without {@code --prefix-addresses}. Programs built by clang against static glibc showed the first
 * two, in their calls to the IFUNC PLT and in {@code bl _init}.
 */
class SymbolNamesOracleTest {
    private static final Pattern PLAIN = Pattern.compile("^  ([0-9a-f]+):\t[0-9a-f]{8} \t(\\S+)(?:\t(.*))?$");
    private static final Pattern PREFIXED = Pattern.compile("^([0-9a-f]{16}) <([^>]+)> .*$");

    private static InputStream resource(String name) throws IOException {
        InputStream in = SymbolNamesOracleTest.class.getResourceAsStream("/isa/" + name);
        if (in == null) {
            throw new IOException("no test resource isa/" + name + " (tools/isa-oracle/names.s makes it)");
        }
        return in;
    }

    private static ProgramImage image() throws IOException {
        try (InputStream in = new GZIPInputStream(resource("names-a64.elf.gz"))) {
            return ElfImage.load(in.readAllBytes(), "names-a64.elf");
        }
    }

    private static List<String> table() throws IOException {
        try (InputStream in = resource("names-a64.objdump.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("#")).toList();
        }
    }

    @Test
    void branchAndAdrpTargetsAreNamedAsObjdumpNamesThem() throws IOException {
        ProgramImage image = image();
        SymbolTable symbols = image.symbols();
        Disassembler d = new Disassembler(Profile.AR);
        Map<Long, String> want = new LinkedHashMap<>();
        Map<Long, String> got = new LinkedHashMap<>();
        for (String line : table()) {
            Matcher m = PLAIN.matcher(line);
            if (m.matches()) {
                long address = Long.parseLong(m.group(1), 16);
                want.put(address, (m.group(2) + " " + (m.group(3) == null ? "" : m.group(3))).trim());
                got.put(address, String.join(" ", d.disassemble(image.memory(), address, Isa.A64, 0, symbols)
                        .toString().trim().split("\\s+")));
            }
        }
        assertThat(want).hasSize(25);
        assertThat(got).isEqualTo(want);
        // the cases themselves, so that a table made otherwise cannot pass unnoticed
        assertThat(want.values()).contains("bl 401010 <myinit>", "bl 401030 <.plt+0x10>",
                "adrp x16, 410000 <.got.plt+0x18>", "bl 40200c <asec>", "bl 403004 <ahigh>", "bl 404004 <ahigh+0x1000>");
    }

    @Test
    void listedAddressesAreNamedAsPrefixAddressesNamesThem() throws IOException {
        ProgramImage image = image();
        Symbolizer names = new Symbolizer(image.symbols());
        List<String> differ = new ArrayList<>();
        int compared = 0;
        for (String line : table()) {
            Matcher m = PREFIXED.matcher(line);
            if (m.matches()) {
                long address = Long.parseLong(m.group(1), 16);
                compared++;
                String ours = names.name(address);
                if (!ours.equals(m.group(2))) {
                    differ.add(String.format("%x: objdump <%s>, armtrace <%s>", address, m.group(2), ours));
                }
            }
        }
        assertThat(compared).isEqualTo(25);
        assertThat(differ).isEmpty();
        // the cases: below the first symbol of a section, and in a section without symbols
        assertThat(names.name(0x402000L)).isEqualTo("asec-0xc");
        assertThat(names.name(0x404004L)).isEqualTo(".nosym+0x4");
    }

    /** Section symbols name addresses only: they are no function of their own for the other users. */
    @Test
    void pltSectionSymbolIsNoFunction() throws IOException {
        SymbolTable symbols = image().symbols();
        assertThat(symbols.nameFor(0x401030L).name()).isEqualTo(".plt");
        assertThat(symbols.find(".plt")).isNull();
        assertThat(symbols.symbols()).noneMatch(s -> s.name().startsWith("."));
    }
}
