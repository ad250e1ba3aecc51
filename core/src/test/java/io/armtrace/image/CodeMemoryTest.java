package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.source.InputException;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Address spaces as OpenCSD snapshots name them, and code memory that changes as the trace goes. */
class CodeMemoryTest {
    @TempDir
    Path tmp;

    @Test
    void snapshotSpaceNames() {
        assertThat(AddressSpace.parse(null)).isEqualTo(AddressSpace.ANY);
        assertThat(AddressSpace.parse("EL1N")).isEqualTo(new AddressSpace(1, AddressSpace.Security.NON_SECURE, -1));
        assertThat(AddressSpace.parse("el1s")).isEqualTo(new AddressSpace(1, AddressSpace.Security.SECURE, -1));
        assertThat(AddressSpace.parse("EL2")).isEqualTo(new AddressSpace(2, AddressSpace.Security.ANY, -1));
        assertThat(AddressSpace.parse("N")).isEqualTo(new AddressSpace(-1, AddressSpace.Security.NON_SECURE, -1));
        assertThat(AddressSpace.parse("EL9")).isNull();
        assertThat(AddressSpace.parse("EL1N").covers(new AddressSpace(1, AddressSpace.Security.NON_SECURE, 42))).isTrue();
        assertThat(AddressSpace.parse("EL1N").covers(AddressSpace.parse("EL1S"))).isFalse();
        assertThat(AddressSpace.parse("N").covers(AddressSpace.parse("EL0N"))).isTrue();
    }

    @Test
    void mappingsApplyFromTheirTracePositionAndPerProcess() {
        AddressSpace kernel = AddressSpace.parse("EL1N");
        AddressSpace user = AddressSpace.parse("EL0N");
        AddressSpace proc7 = user.withContextId(7);
        AddressSpace proc9 = user.withContextId(9);
        MappedCodeMemory code = new MappedCodeMemory()
                .map(kernel, 0, new MemoryImage().add(0xFFFF0000L, new byte[] {1, 2}, "vmlinux"))
                .map(proc7, 0, new MemoryImage().add(0x400000, new byte[] {7}, "proc7 main"))
                .map(proc7, 1000, new MemoryImage().add(0x7F000000L, new byte[] {8}, "libc.so"))
                .map(proc7, 2000, new MemoryImage().add(0x400000, new byte[] {9}, "exec'd again"));
        assertThat(code.at(kernel, 0).u8(0xFFFF0000L)).isEqualTo(1);
        assertThat(code.at(kernel, 0).contains(0x400000, 1)).isFalse();
        assertThat(code.at(proc7, 10).u8(0x400000)).isEqualTo(7);
        assertThat(code.at(proc7, 999).contains(0x7F000000L, 1)).isFalse();
        assertThat(code.at(proc7, 1000).u8(0x7F000000L)).isEqualTo(8);
        assertThat(code.at(proc7, 2500).u8(0x400000)).isEqualTo(9); // the later mapping wins where they overlap
        assertThat(code.at(proc9, 2500).isEmpty()).isTrue();
        assertThat(code.changesAfter(0)).isEqualTo(1000);
        assertThat(code.changesAfter(1500)).isEqualTo(2000);
        assertThat(code.changesAfter(2000)).isEqualTo(Long.MAX_VALUE);
        assertThat(code.at(proc7, 1500)).isSameAs(code.at(proc7, 1999)); // cached between changes
        assertThatThrownBy(() -> code.map(kernel, 5, new MemoryImage())).isInstanceOf(IllegalArgumentException.class);
        MemoryImage one = new MemoryImage();
        assertThat(CodeMemory.of(one).at(proc9, 123)).isSameAs(one);
    }

    @Test
    void snapshotDumpsGoToTheSpacesTheyName() throws Exception {
        Files.write(tmp.resolve("el1.bin"), new byte[] {0x11, 0x11});
        Files.write(tmp.resolve("el3.bin"), new byte[] {0x33, 0x33});
        Files.writeString(tmp.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=cpu_0.ini\n"
                + "device1=etm_0.ini\n\n[trace]\nmetadata=trace.ini\n");
        Files.writeString(tmp.resolve("cpu_0.ini"), "[device]\nname=cpu_0\nclass=core\ntype=Cortex-A53\n\n[regs]\nPC=0x1000\n\n"
                + "[dump1]\nfile=el1.bin\naddress=0x1000\nspace=EL1N\n\n[dump2]\nfile=el3.bin\naddress=0x1000\nspace=EL3\n");
        Files.writeString(tmp.resolve("etm_0.ini"), "[device]\nname=ETM_0\nclass=trace_source\ntype=ETM4\n\n[regs]\n"
                + "TRCTRACEIDR=0x10\n");
        Files.writeString(tmp.resolve("trace.ini"), "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\nfile=trace.bin\n"
                + "format=source_data\n\n[source_buffers]\nETM_0=ETB_0\n\n[core_trace_sources]\ncpu_0=ETM_0\n");
        Files.write(tmp.resolve("trace.bin"), new byte[0]);
        Snapshot snap = Snapshot.load(tmp);
        SnapshotSource s = snap.sources().get(0);
        MappedCodeMemory code = snap.codeMemory(s);
        assertThat(code.spaces()).containsExactly(AddressSpace.parse("EL1N"), AddressSpace.parse("EL3"));
        assertThat(code.at(AddressSpace.parse("EL1N"), 0).u8(0x1000)).isEqualTo(0x11);
        assertThat(code.at(new AddressSpace(3, AddressSpace.Security.SECURE, -1), 0).u8(0x1000)).isEqualTo(0x33);
        assertThat(code.at(AddressSpace.parse("EL2N"), 0).isEmpty()).isTrue();

        // the API hands the decoders the spaces (DecodeInput.code) beside the merged image
        io.armtrace.api.TraceSource api = io.armtrace.api.Decoder.openSnapshot(tmp, io.armtrace.api.DecodeOptions.DEFAULT)
                .sources().get(0);
        assertThat(api.input().code()).isSameAs(api.codeMemory());
        assertThat(api.codeMemory().at(AddressSpace.parse("EL1N"), 0).u8(0x1000)).isEqualTo(0x11);
        assertThat(api.codeMemory().at(AddressSpace.parse("EL3"), 0).u8(0x1000)).isEqualTo(0x33);
        assertThat(api.image().memory().contains(0x1000, 2)).isTrue();

        Files.writeString(tmp.resolve("cpu_0.ini"), Files.readString(tmp.resolve("cpu_0.ini")).replace("space=EL3", "space=EL7"));
        Snapshot bad = Snapshot.load(tmp);
        assertThatThrownBy(() -> bad.codeMemory(bad.sources().get(0))).isInstanceOf(InputException.class)
                .hasMessageContaining("cpu_0.ini").hasMessageContaining("EL7");
    }
}
