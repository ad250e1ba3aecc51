// A64 encodings compilers seldom emit, for the oracle tables (assembled and disassembled, never run):
// every branch form, exception generation and return, barriers, hints and WFx.
    .text
    .globl rare_a64
rare_a64:
    b       1f
    bl      rare_a64
    b.eq    1f
    b.al    1f
    b.nv    1f
    bc.ne   1f
    bc.al   1f
    cbz     w3, 1f
    cbnz    x4, rare_a64
    tbz     w5, #3, 1f
    tbnz    x6, #63, rare_a64
1:  br      x17
    blr     x8
    ret
    ret     x15
    braa    x1, x2
    brab    x3, sp
    braaz   x4
    brabz   x5
    blraa   x6, x7
    blrab   x8, x9
    blraaz  x10
    blrabz  x11
    retaa
    retab
    eret
    eretaa
    eretab
    svc     #0
    svc     #0x1234
    hvc     #1
    smc     #2
    brk     #0x3e8
    hlt     #0xf000
    udf     #0
    udf     #0xffff
    dcps1
    dcps2
    dcps3
    isb
    isb     #3
    dmb     ish
    dmb     #0
    dsb     sy
    dsb     #12
    ssbb
    pssbb
    sb
    dsb     nshnxs
    wfi
    wfe
    wfit    x1
    wfet    x2
    nop
    yield
    sev
    sevl
    esb
    psb     csync
    tsb     csync
    csdb
    bti
    bti     c
    bti     j
    bti     jc
    paciasp
    autiasp
    pacibsp
    autibsp
    xpaclri
    clrex
    msr     daifset, #2
    msr     daifclr, #0xf
    msr     spsel, #1
    msr     pan, #1
    cfinv
    mrs     x0, currentel
    msr     vbar_el1, x1
    sys     #0, c7, c5, #0
    ic      ivau, x2
    dc      civac, x3
    tlbi    vmalle1is
    at      s1e1r, x4
    sysl    x5, #1, c2, c3, #4
    drps
