#!/usr/bin/env python3
"""Hand-built ETMv4/ETE packet sequences, one snapshot directory each, for the cross-check with OpenCSD's
trc_pkt_lister (etm4.sh). Together they use every packet of ETMv4.0-4.6 and ETE that the real captures in
conformance/etm4 do not: speculation (commit, cancel 1-3, mispredict), cycle counts 1-3 with and without
commit fields, Q packets, conditional instruction and result packets, data synchronization markers, events,
every address form, contexts with VMID and context ID, timestamps with cycle counts, v8-M function returns
and M-profile exceptions, ETE transactions, PE reset, timestamp markers and source addresses; and the
errors a reader must survive (reserved headers, bad extension packets, overlong fields, a packet cut off).

Usage: etm4_cases.py OUTDIR   (writes OUTDIR/<case>/ for every case)

The bytes are written from the packet formats of IHI 0064's packet descriptions; nothing here comes from armtrace.
"""
import os
import sys


def cont(v):
    """A continuation field: 7 bits a byte, least significant first, bit 7 set when another byte follows."""
    out = []
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return out


ASYNC = [0x00] * 11 + [0x80]


def tinfo(info=None, key=None, spec=None, cyct=None):
    plctl = 0
    body = []
    for bit, val in ((0, info), (1, key), (2, spec), (3, cyct)):
        if val is not None:
            plctl |= 1 << bit
            body += cont(val)
    return [0x01, plctl] + body


def ts(value, nbytes, cc=None):
    out = [0x03 if cc is not None else 0x02]
    for i in range(nbytes):
        if i == 8:
            out.append((value >> 56) & 0xFF)
        else:
            more = i + 1 < nbytes
            out.append(((value >> (7 * i)) & 0x7F) | (0x80 if more else 0))
    if cc is not None:
        out += cont(cc)
    return out


def long32(addr, is1=False):
    if is1:
        return [0x9B, (addr >> 1) & 0x7F, (addr >> 8) & 0xFF, (addr >> 16) & 0xFF, (addr >> 24) & 0xFF]
    return [0x9A, (addr >> 2) & 0x7F, (addr >> 9) & 0x7F, (addr >> 16) & 0xFF, (addr >> 24) & 0xFF]


def long64(addr, is1=False, header=None):
    if is1:
        first = [(addr >> 1) & 0x7F, (addr >> 8) & 0xFF]
    else:
        first = [(addr >> 2) & 0x7F, (addr >> 9) & 0x7F]
    h = header if header is not None else (0x9E if is1 else 0x9D)
    return [h] + first + [(addr >> s) & 0xFF for s in (16, 24, 32, 40, 48, 56)]


def short(addr, is1=False, two=True, header=None):
    shift = 1 if is1 else 2
    lo = (addr >> shift) & 0x7F
    h = header if header is not None else (0x96 if is1 else 0x95)
    if two:
        return [h, lo | 0x80, (addr >> (7 + shift)) & 0xFF]
    return [h, lo]


def ctxt_info(el, sf, ns, vmid=None, cid=None, vmid_bytes=4, cid_bytes=4):
    info = el | (0x10 if sf else 0) | (0x20 if ns else 0) | (0x40 if vmid is not None else 0) | (0x80 if cid is not None else 0)
    out = [info]
    if vmid is not None:
        out += [(vmid >> (8 * i)) & 0xFF for i in range(vmid_bytes)]
    if cid is not None:
        out += [(cid >> (8 * i)) & 0xFF for i in range(cid_bytes)]
    return out


def addr_ctxt64(addr, el, sf, ns, vmid=None, cid=None, is1=False):
    a = long64(addr, is1)
    return [0x86 if is1 else 0x85] + a[1:] + ctxt_info(el, sf, ns, vmid, cid)


def addr_ctxt32(addr, el, sf, ns, vmid=None, cid=None, is1=False):
    a = long32(addr, is1)
    return [0x83 if is1 else 0x82] + a[1:] + ctxt_info(el, sf, ns, vmid, cid)


def exception(typ, interp=1, pending=False, force3=False):
    e0 = interp & 1
    e1 = (interp >> 1) & 1
    b1 = e0 | ((typ & 0x1F) << 1) | (e1 << 6)
    if typ > 0x1F or pending or force3:
        return [0x06, b1 | 0x80, ((typ >> 5) & 0x1F) | (0x20 if pending else 0)]
    return [0x06, b1]


def regs(configr, idr0, idr1, idr2, traceid, idr8=0, extra=()):
    lines = [
        "TRCCONFIGR(0x004)=0x%08X" % configr,
        "TRCTRACEIDR(0x010)=0x%08X" % traceid,
        "TRCAUTHSTATUS(0x3EE)=0x000000CC",
        "TRCIDR0(0x078)=0x%08X" % idr0,
        "TRCIDR1(0x079)=0x%08X" % idr1,
        "TRCIDR2(0x07A)=0x%08X" % idr2,
        "TRCIDR8(0x060)=0x%08X" % idr8,
    ]
    for n in (9, 10, 11, 12, 13):
        lines.append("TRCIDR%d(0x%03X)=0x00000000" % (n, 0x58 + n))
    lines += list(extra)
    return "\n".join(lines) + "\n"


# TRCIDR0 for the full-featured ETMv4 cases: branch broadcast, cycle counting, return stack, 4 events,
# Q elements with and without counts, 64-bit timestamps, commit mode 0
IDR0_FULL = 0x1 | 0x20 | 0x80 | 0x200 | 0xC00 | (3 << 15) | (8 << 24)
# 64-bit addresses, 32-bit context IDs, 32-bit VMIDs, 12-bit cycle counter
IDR2_FULL = 0x8 | (4 << 5) | (4 << 10)
CONFIGR_FULL = 0x1 | 0x8 | 0x10 | 0x40 | 0x80 | 0x800 | 0x1000 | (3 << 13)


def speculation_and_counts():
    """ETMv4.3, speculation depth 16: every speculation, cycle count, timestamp, Q and address form."""
    p = []
    p += [0x11, 0x22]  # bytes before the first A-sync
    p += ASYNC
    p += tinfo(info=1, key=5, spec=3, cyct=0x10)
    p += [0x04]  # trace on
    p += addr_ctxt64(0xFFFFFFC000081000, el=1, sf=True, ns=True, vmid=0x12345678, cid=0x00ABCDEF)
    p += [0xF7, 0xF6, 0xDB, 0xD8, 0xD9, 0xDA, 0xFF, 0xF8, 0xFA, 0xDC, 0xDD, 0xDE, 0xDF]  # atoms F1 F2 F3 F4
    p += [0xD5, 0xD6, 0xD7, 0xF5, 0xC0, 0xE0, 0xD4, 0xF4, 0xC7, 0xE9]  # atoms F5 F6
    p += short(0xFFFFFFC000081234, two=False) + short(0xFFFFFFC000082468) + short(0x12, is1=True, two=False)
    p += short(0x4F9A02, is1=True) + long32(0x80001000) + long32(0x80002002, is1=True)
    p += long64(0x0000007F8E59A7A4) + long64(0x0000000000400203, is1=True)
    p += [0x90, 0x91, 0x92]  # exact match with entries 0, 1, 2
    p += [0x80]  # context: same
    p += [0x81] + ctxt_info(0, sf=True, ns=True, vmid=7)
    p += [0x81] + ctxt_info(2, sf=False, ns=False, cid=0x55)
    p += addr_ctxt32(0x00010000, el=0, sf=False, ns=True, cid=0x1234, is1=True)
    p += addr_ctxt64(0x0000000000400000, el=0, sf=True, ns=True)
    p += ts(0x1234, 2) + ts(0x2F150C0, 6, cc=0x15) + ts(0x8877665544332211, 9) + ts(0x7F, 1, cc=0x7F)
    p += [0x0E] + cont(2) + cont(0x123)  # cycle count F1: commit 2, count 0x123
    p += [0x0F] + cont(1)  # cycle count F1, count unknown
    p += [0x0C, 0x35, 0x0D, 0x04, 0x0D, 0xF1]  # cycle count F2, F = 0 and F = 1
    p += [0x10, 0x17, 0x1B, 0x1F]  # cycle count F3
    p += [0x71, 0x72, 0x74, 0x78, 0x7F]  # events
    p += exception(0x0E) + short(0xFFFFFFC000081238, two=False)  # IRQ, return address follows
    p += exception(0x03, interp=2) + long32(0x90000000)  # trap, address also the branch target
    p += exception(0x0C, force3=True) + long64(0xFFFFFFC0000EA588)  # data fault, 3-byte form
    p += [0x07]  # exception return
    p += [0x2D] + cont(3) + [0x2D] + cont(300)  # commit
    p += [0x2E] + cont(2) + [0x2F] + cont(1)  # cancel format 1, with mispredict
    p += [0x30, 0x31, 0x32, 0x33]  # mispredict with A = none, E, EE, N
    p += [0x34, 0x35, 0x36, 0x37]  # cancel format 2
    p += [0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F]  # cancel format 3
    p += [0xA0] + cont(5) + [0xA1] + cont(130) + [0xA2] + cont(1)  # Q with exact match addresses
    p += [0xA5, 0x12] + cont(7) + [0xA5, 0x93, 0x01] + cont(8)  # Q with short IS0 address
    p += [0xA6, 0x22] + cont(9)  # Q with short IS1 address
    p += [0xAA] + long32(0x80004000)[1:] + cont(10) + [0xAB] + long32(0x80005002, is1=True)[1:] + cont(11)
    p += [0xAC] + cont(12) + [0xAF]  # Q with count only, Q without count
    p += [0x70]  # ignore
    p += [0x00, 0x03]  # discard
    p += [0x00, 0x05]  # overflow
    p += ASYNC + tinfo(info=0) + [0x04] + addr_ctxt64(0xFFFFFFC000081000, el=1, sf=True, ns=True)
    p += [0xF7, 0x95, 0x05]
    return p


def conditional_and_data():
    """ETMv4.4 with conditional instruction tracing (all instructions) and data tracing."""
    p = ASYNC + tinfo(info=0xE) + [0x04] + addr_ctxt32(0x8000, el=1, sf=False, ns=False)
    p += [0x6C] + cont(3) + [0x6C] + cont(200)  # conditional instruction format 1
    p += [0x40, 0x41, 0x42]  # format 2
    p += [0x6D, 0x07, 0x6D, 0x7E]  # format 3
    p += [0x43]  # conditional flush
    p += [0x68, 0x31, 0x02, 0x69, 0xB1, 0x05, 0x22, 0x6A, 0x01, 0x01, 0x6B, 0x41, 0x07]  # result format 1, two payloads
    p += [0x6E, 0x15, 0x6F, 0x95, 0x03]  # result format 1, one payload
    p += [0x48, 0x49, 0x4A, 0x4C, 0x4D, 0x4E]  # result format 2
    p += [0x50, 0x12, 0x5F, 0xFF]  # result format 3
    p += [0x44, 0x45, 0x46]  # result format 4
    p += [0x20, 0x23, 0x27]  # numbered data synchronization markers
    p += [0x28, 0x2A, 0x2C]  # unnumbered
    p += [0xF7, 0xDB]
    return p


def v46_markers():
    """ETMv4.6: timestamp markers; ETMv4.0 style otherwise."""
    return ASYNC + tinfo(info=0) + [0x04] + addr_ctxt64(0x400000, el=0, sf=True, ns=True) + [0x88, 0xF7, 0x88] \
        + ts(0x100, 2) + [0x88, 0x70]


def commit_mode_1():
    """Commit mode 1 (TRCIDR0.COMMOPT): cycle count packets carry no commit field."""
    return ASYNC + tinfo(info=1, cyct=3) + [0x04] + addr_ctxt64(0x400000, el=0, sf=True, ns=True) \
        + [0x0E] + cont(0x40) + [0x0F, 0x15, 0x1A, 0xF7] + [0x0E] + cont(0x3FFFF)


def ete_packets():
    """ETE v1.1: transactions, PE reset and transaction failure, timestamp markers, source addresses."""
    p = ASYNC + tinfo(info=0x41) + [0x04] + addr_ctxt64(0xFFFF800010000000, el=1, sf=True, ns=True, cid=9)
    p += [0xF7, 0x0A, 0xF6, 0x0B, 0x0A]  # transaction start / commit
    p += exception(0x18, interp=0, force3=True)  # transaction failure
    p += exception(0x0E) + short(0xFFFF800010000010, two=False)
    p += exception(0x00, interp=0, force3=True)  # PE reset
    p += [0x88] + ts(0xABC, 2) + [0x88]
    p += long64(0xFFFF800010001000, header=0xB8) + short(0xFFFF800010001040, two=False, header=0xB4)
    p += short(0xFFFF800010001082, is1=True, header=0xB5)
    p += [0xB6, 0x00, 0x20, 0x00, 0x10] + [0xB7, 0x01, 0x30, 0x00, 0x10]
    p += long64(0x0000000010004002, is1=True, header=0xB9)
    p += [0xB0, 0xB1, 0xB2, 0xF7, 0x2D] + cont(2)
    return p


def m_profile():
    """ETMv4.2 on an Armv8-M core: function returns, M-profile exception numbers with fault pending."""
    p = ASYNC + tinfo(info=0) + [0x04] + addr_ctxt32(0x00001000, el=0, sf=False, ns=False, is1=True)
    p += [0xF7, 0x05, 0xF6]  # function return
    p += exception(0x0B) + short(0x1010, is1=True, two=False)  # SVC
    p += exception(0x03, pending=True) + short(0x1020, is1=True, two=False)  # HardFault, fault pending
    p += exception(0x210) + long32(0x00002002, is1=True)  # IRQ16
    p += [0x07, 0xF7]
    return p


def state_change():
    """From AArch64 to AArch32 and back: a 32-bit address with an AArch32 context has no upper half."""
    p = ASYNC + tinfo(info=0) + [0x04] + addr_ctxt64(0xFFFFFFC000081000, el=1, sf=True, ns=True)
    p += [0xF7] + addr_ctxt32(0x00010000, el=0, sf=False, ns=True, is1=True) + [0xF7, 0xF6]
    p += short(0x10020, is1=True, two=False) + [0xF7]
    p += addr_ctxt64(0xFFFFFFC000082000, el=1, sf=True, ns=True) + long32(0x00083000) + [0xF7]
    return p


def errors():
    """Errors: garbage, reserved headers, bad extension packets, an overlong field, a packet cut off."""
    p = [0x13, 0x00, 0x00, 0x80, 0xFF] + [0x00] * 14 + [0x80]  # garbage, then an A-sync with extra zeros
    p += tinfo(info=0) + [0x04] + addr_ctxt64(0x400000, el=0, sf=True, ns=True)
    p += [0xF7, 0x08, 0xF7, 0xF6]  # reserved header 0x08
    p += ASYNC + tinfo(info=0) + [0xF7, 0x84, 0xF7]  # reserved 0x84
    p += ASYNC + tinfo(info=0) + [0xA3, 0xF7]  # reserved Q type
    p += ASYNC + tinfo(info=0) + [0x00, 0x07, 0xF7]  # unknown extension
    p += ASYNC + tinfo(info=0) + [0x00, 0x00, 0x00, 0x13, 0xF7]  # A-sync cut by a non-zero byte
    p += ASYNC + tinfo(info=0) + [0x2D, 0x81, 0x82, 0x83, 0x84, 0x85, 0x06, 0xF7]  # commit field of 6 bytes
    p += ASYNC + tinfo(info=0) + [0xF7, 0x9D, 0x01, 0x02]  # a long address cut off by the end
    return p


CPU = "[device]\nname=cpu_0\nclass=core\ntype=%s\n\n[regs]\nPC(size:64)=0x0\n"
SNAPSHOT = "[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=cpu_0.ini\ndevice1=etm_0.ini\n\n[trace]\nmetadata=trace.ini\n"
TRACE = ("[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=etr_0\nfile=trace.bin\nformat=source_data\n\n"
         "[source_buffers]\netm_0=etr_0\n\n[core_trace_sources]\ncpu_0=etm_0\n")

CASES = {
    # name: (core type, device type, registers, bytes)
    "speculation-and-counts": ("Cortex-A57", "ETM4", regs(CONFIGR_FULL, IDR0_FULL, 0x4100F430, IDR2_FULL, 0x10, idr8=16),
                               speculation_and_counts()),
    "conditional-and-data": ("Cortex-A57", "ETM4",
                             regs(0x1 | 0x6 | 0x700 | 0x10000, 0x1 | 0x6 | 0x18 | 0x40 | 0x80 | (8 << 24), 0x4100F440,
                                  0x8 | (4 << 5) | (1 << 10), 0x11), conditional_and_data()),
    "v46-timestamp-markers": ("Cortex-A57", "ETM4", regs(0x1 | 0x800, 0x28000EA1, 0x4100F460, 0x488, 0x12),
                              v46_markers()),
    "commit-mode-1": ("Cortex-A57", "ETM4", regs(0x1 | 0x10, 0x28000EA1, 0x4100F403, 0x488, 0x13), commit_mode_1()),
    "ete-packets": ("ARMv9-A", "ETE", regs(0x1 | 0x40 | 0x800, 0x28000EA1, 0x4100FFF3, 0x488, 0x14,
                                           extra=["TRCDEVARCH(0xFBE)=0x47715A13"]), ete_packets()),
    "v8m-function-return": ("Cortex-M33", "ETM4", regs(0x1, 0x280006E1, 0x4100F420, 0x4, 0x15), m_profile()),
    "state-change": ("Cortex-A57", "ETM4", regs(0x1, 0x28000EA1, 0x4100F400, 0x488, 0x17), state_change()),
    "errors": ("Cortex-A57", "ETM4", regs(0x1, 0x28000EA1, 0x4100F430, 0x488, 0x16), errors()),
}


def main():
    out = sys.argv[1]
    for name, (core, dev, reg, data) in CASES.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "snapshot.ini"), "w") as f:
            f.write(SNAPSHOT)
        with open(os.path.join(d, "cpu_0.ini"), "w") as f:
            f.write(CPU % core)
        with open(os.path.join(d, "etm_0.ini"), "w") as f:
            f.write("[device]\nname=etm_0\nclass=trace_source\ntype=%s\n\n[regs]\n%s" % (dev, reg))
        with open(os.path.join(d, "trace.ini"), "w") as f:
            f.write(TRACE)
        with open(os.path.join(d, "trace.bin"), "wb") as f:
            f.write(bytes(b & 0xFF for b in data))
        print(name)


if __name__ == "__main__":
    main()
