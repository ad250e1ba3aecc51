package io.armtrace.protocol.mtb;

import io.armtrace.image.ProgramImage;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import java.util.OptionalLong;

/**
 * What the MTB decoder learns about one program and keeps across dumps: its code as blocks up to the
 * next flow change (a {@link CodeWalker} cache) and its exception vector table. A service that decodes
 * many dumps of the same firmware builds one and passes it to every {@link MtbFlow}. Not thread-safe:
 * one per decoding thread.
 */
public final class MtbProgram {
    /** The longest straight run one cached block covers; longer runs continue in the next block. */
    static final int BLOCK_BYTES = 4096;

    private final ProgramImage image;
    private final CodeWalker walker;
    private final ExceptionVectors vectors;
    private final OptionalLong vtor;

    /** {@code vtor}: the vector table address if known; otherwise it is looked for in the image. */
    public MtbProgram(ProgramImage image, OptionalLong vtor, int cacheBlocks) {
        this.image = image;
        this.vtor = vtor;
        this.walker = new CodeWalker(image.memory(), new InstructionClassifier(Profile.M), false, BLOCK_BYTES,
                cacheBlocks);
        this.vectors = ExceptionVectors.find(image, vtor);
    }

    public MtbProgram(ProgramImage image, OptionalLong vtor) {
        this(image, vtor, 4096);
    }

    public ProgramImage image() {
        return image;
    }

    /** The vector table address it was built with, if given. */
    public OptionalLong vtor() {
        return vtor;
    }

    CodeWalker walker() {
        return walker;
    }

    ExceptionVectors vectors() {
        return vectors;
    }

    /** Address of the vector table used to name exceptions, -1 if none was found. */
    public long vectorTable() {
        return vectors.table();
    }
}
