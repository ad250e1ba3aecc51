package io.armtrace.isa.disasm;

/**
 * The Armv8.2 cryptographic extensions (SHA512, SHA3, SM3, SM4; DDI 0487 C4.1.6, op0 = 1100):
 * not decoded yet, see docs/disassembly.md.
 */
final class A64Crypto {
    private A64Crypto() {
    }

    static String disassemble(int w) {
        return null;
    }
}
