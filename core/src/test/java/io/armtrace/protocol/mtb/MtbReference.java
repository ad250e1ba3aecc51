package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.ProgramImage;
import java.util.ArrayList;
import java.util.List;

/**
 * What an MTB decode must give back for an execution, derived without encoding anything: the rule of
 * the MTB storage format stated over instruction indices. Every non-sequential change of the PC
 * (a taken branch that lands elsewhere than on the next instruction), exception entry and
 * exception return (two packets) writes packets "after" the instruction that precedes it (its moment);
 * the buffer keeps the newest {@code capacity} written packets; between two kept packets of one
 * stretch the decode gives exactly the instructions executed between their moments; a stretch begins at
 * the oldest kept packet and at every packet written first after trace was (re)enabled.
 */
final class MtbReference {
    /** Step indices (into {@link Execution#steps()}) per stretch, oldest first. */
    final List<long[]> stretches = new ArrayList<>();
    final List<Long> addresses = new ArrayList<>();
    int keptPackets;
    long writtenPackets;

    private record Packet(long moment, boolean start) {
    }

    private static final java.util.Map<Execution, List<ExecutionEvent.Step>> STEPS =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());


    static MtbReference of(Execution execution, ProgramImage image, int capacity, long[] tstart, long[] tstop, long haltAfter,
                           boolean completeWithPc) {
        return of(execution, image, capacity, tstart, tstop, haltAfter, completeWithPc, 0);
    }

    /** {@code watermarkPackets} > 0: trace stops for good once that many packets are written. */
    static MtbReference of(Execution execution, ProgramImage image, int capacity, long[] tstart, long[] tstop, long haltAfter,
                           boolean completeWithPc, int watermarkPackets) {
        List<ExecutionEvent.Step> steps = STEPS.computeIfAbsent(execution, Execution::steps);
        List<Long> moments = new ArrayList<>(); // moment of each packet the core writes
        long lastStep = -1; // index of the last step seen
        boolean exceptionSince = false;
        ExecutionEvent previous = null;
        java.util.ArrayDeque<Long> active = new java.util.ArrayDeque<>(); // preferred returns, innermost first
        long end = steps.size() - 1; // last step index executed
        for (ExecutionEvent e : execution.events()) {
            boolean halting = haltAfter > 0 && lastStep + 1 == haltAfter;
            if (e instanceof ExecutionEvent.Step s) {
                if (lastStep >= 0 && !exceptionSince) {
                    ExecutionEvent.Step p = steps.get((int) lastStep);
                    if (s.address() != p.address() + p.size()) {
                        moments.add(lastStep);
                    }
                }
                if (halting) {
                    end = lastStep;
                    break;
                }
                lastStep++;
                exceptionSince = false;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                if (previous instanceof ExecutionEvent.Step && !active.isEmpty()
                        && x.preferredReturn() == active.peek()) {
                    // tail-chained (execution records write no R for it): the return pair, the second
                    // packet into the new handler; halting, the return completes instead
                    moments.add(lastStep);
                    moments.add(lastStep);
                    if (halting) {
                        end = lastStep;
                        break;
                    }
                    exceptionSince = true;
                    previous = e;
                    continue;
                }
                active.push(x.preferredReturn());
                boolean tailChain = previous instanceof ExecutionEvent.ExceptionReturned;
                if (!tailChain && !exceptionSince && lastStep >= 0) {
                    ExecutionEvent.Step p = steps.get((int) lastStep);
                    if (x.preferredReturn() != p.address()
                            && x.preferredReturn() != p.address() + p.size()) {
                        moments.add(lastStep);
                    }
                }
                if (halting) {
                    end = lastStep;
                    break;
                }
                if (!tailChain) {
                    moments.add(lastStep);
                }
                exceptionSince = true;
            } else if (e instanceof ExecutionEvent.ExceptionReturned) {
                active.poll();
                if (lastStep >= 0) {
                    moments.add(lastStep);
                }
                moments.add(lastStep);
                exceptionSince = true;
                if (halting) {
                    end = lastStep;
                    break;
                }
            }
            previous = e;
        }
        // trace enable state after each step (TSTART/TSTOP comparators on instruction addresses)
        boolean enabled = tstart.length == 0;
        int period = 0;
        boolean[] on = new boolean[(int) Math.max(0, end + 1)];
        int[] periodAfter = new int[on.length];
        for (int i = 0; i <= end; i++) {
            long a = steps.get(i).address();
            for (long t : tstart) {
                if (t == a && !enabled) {
                    enabled = true;
                    period++;
                }
            }
            for (long t : tstop) {
                if (t == a) {
                    enabled = false;
                }
            }
            on[i] = enabled;
            periodAfter[i] = period;
        }
        boolean initiallyOn = tstart.length == 0;
        List<Packet> written = new ArrayList<>();
        int lastPeriod = -1;
        for (long m : moments) {
            boolean isOn = m < 0 ? initiallyOn : on[(int) m];
            if (!isOn) {
                continue;
            }
            int p = m < 0 ? 0 : periodAfter[(int) m];
            written.add(new Packet(m, p != lastPeriod));
            lastPeriod = p;
        }
        boolean stoppedByWatermark = watermarkPackets > 0 && written.size() >= watermarkPackets;
        if (stoppedByWatermark) {
            written = new ArrayList<>(written.subList(0, watermarkPackets));
        }
        MtbReference r = new MtbReference();
        r.writtenPackets = written.size();
        List<Packet> kept = written.subList(Math.max(0, written.size() - capacity), written.size());
        r.keptPackets = kept.size();
        long from = -2;
        long to = -2;
        for (int k = 0; k < kept.size(); k++) {
            Packet p = kept.get(k);
            if (k == 0 || p.start()) {
                if (from != -2) {
                    r.add(steps, from, to);
                }
                from = p.moment();
            }
            to = p.moment();
        }
        if (from != -2) {
            boolean endOn = end < 0 ? initiallyOn : on[(int) end];
            r.add(steps, from, completeWithPc && endOn && !stoppedByWatermark ? end : to);
        }
        return r;
    }

    private void add(List<ExecutionEvent.Step> steps, long afterMoment, long through) {
        stretches.add(new long[] {afterMoment + 1, through});
        for (long i = afterMoment + 1; i <= through; i++) {
            addresses.add(steps.get((int) i).address());
        }
    }
}
