package io.armtrace.protocol.ptm;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The benchmark's two operations timed in thread CPU time rather than wall time, for a machine shared
 * with other work (where JMH's wall-clock scores mostly measure the neighbours). Compare with
 * {@code /usr/bin/time}'s user time of trc_pkt_lister on target/bench-data/ptm-INPUT.
 * Usage: java -cp ... io.armtrace.protocol.ptm.PtmDecodeCpuTime [tc2|a9thumb] [rounds]
 */
public final class PtmDecodeCpuTime {
    private PtmDecodeCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        PtmDecodeBenchmark b = new PtmDecodeBenchmark();
        b.input = args.length > 0 ? args[0] : "tc2";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        b.setup();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double mb = b.stream.length / 1e6;
        for (int r = 0; r < rounds; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            long packets = b.packetsOnly();
            long t1 = mx.getCurrentThreadCpuTime();
            long insns = b.fullDecode();
            long t2 = mx.getCurrentThreadCpuTime();
            double p = (t1 - t0) / 1e9;
            double f = (t2 - t1) / 1e9;
            System.out.printf("round %d: packets only %.2f s CPU = %.1f MB/s (%d packets); full decode %.2f s CPU = "
                    + "%.1f MB/s, %.1f M instructions/s%n", r, p, mb / p, packets, f, mb / f, insns / f / 1e6);
        }
    }
}
