package io.armtrace.trace;

/**
 * Execution context from now on: the context ID (the process, CONTEXTIDR) and VMID (the virtual
 * machine) when traced, -1 when not; the security state; the exception level, -1 when the protocol does
 * not trace it (ETMv1 to ETMv3, PFT, MTB); whether the core is in AArch64 state; and {@code hyp}, Hyp
 * mode (AArch32 EL2) as ETMv3 and PFT trace it (IHI 0014Q 7.4.4, IHI 0035B 4.5.3). A protocol that
 * traces the exception level sets {@code hyp} for AArch32 EL2 too. On an M-profile core, which has no
 * exception levels, {@code mode} is Thread or Handler mode where the trace says which (ETMv4), else
 * {@link ProcessorMode#NONE}.
 *
 * <p>What a context names is the address space the instructions that follow run in: a decoder that
 * keeps program memory per address space switches on it.
 */
public record Context(int source, long contextId, long vmid, SecurityState security, int exceptionLevel,
                      boolean aarch64, boolean hyp, ProcessorMode mode) implements TraceElement {

    /** A context of a core that is not M-profile, or whose mode the trace does not say. */
    public Context(int source, long contextId, long vmid, SecurityState security, int exceptionLevel,
                   boolean aarch64, boolean hyp) {
        this(source, contextId, vmid, security, exceptionLevel, aarch64, hyp, ProcessorMode.NONE);
    }

    /** An AArch32 context as ETMv3 and PFT trace it: no exception level, Secure or Non-secure. */
    public Context(int source, long contextId, int vmid, boolean nonSecure, boolean hyp) {
        this(source, contextId, vmid, nonSecure ? SecurityState.NON_SECURE : SecurityState.SECURE, -1, false, hyp);
    }

    /** True in Non-secure state. */
    public boolean nonSecure() {
        return security == SecurityState.NON_SECURE;
    }

    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
