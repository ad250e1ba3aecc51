package io.armtrace.source.perf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The binaries mapped into each process over time, from the recording's MMAP/MMAP2, FORK and COMM records.
 * A process starts with the kernel's mappings (pid -1, in every address space's upper half) and, when it
 * was forked during the recording, its parent's mappings at the fork; a COMM record with the exec flag
 * empties its user space; a later mapping replaces the parts of earlier ones it overlaps (as mmap does).
 */
public final class Mappings {
    /** Fork chains longer than this are not followed (a hostile recording could make them endless). */
    static final int MAX_FORK_DEPTH = 64;

    private final List<Mapping> all;
    private final List<ThreadEvent> threads;

    Mappings(List<Mapping> all, List<ThreadEvent> threads) {
        this.all = all;
        this.threads = threads;
    }

    /** Every mapping record, in file order. */
    public List<Mapping> all() {
        return all;
    }

    /**
     * The mappings in force for process {@code pid} at {@code time} (perf clock; -1 or Long.MAX_VALUE for
     * the end of the recording), sorted by address, cut where later mappings overlap them.
     */
    public List<Mapping> at(int pid, long time) {
        TreeMap<Long, Mapping> space = new TreeMap<>(Long::compareUnsigned);
        build(space, pid, time < 0 ? Long.MAX_VALUE : time, 0);
        return new ArrayList<>(space.values());
    }

    /** The mapping of {@code pid} that holds {@code address} at {@code time}, or null. */
    public Mapping find(int pid, long time, long address) {
        for (Mapping m : at(pid, time)) {
            if (Long.compareUnsigned(address, m.start()) >= 0 && Long.compareUnsigned(address, m.end()) < 0) {
                return m;
            }
        }
        return null;
    }

    private void build(TreeMap<Long, Mapping> space, int pid, long time, int depth) {
        // the kernel's mappings hold in every process
        for (Mapping m : all) {
            if (m.pid() == -1 && m.time() <= time) {
                place(space, m);
            }
        }
        if (pid == -1) {
            return;
        }
        // the latest fork that created this process, and the latest exec, before the time
        long start = Long.MIN_VALUE;
        ThreadEvent fork = null;
        for (ThreadEvent t : threads) {
            if (t.pid() != pid || t.time() > time) {
                continue;
            }
            if (t.kind() == ThreadEvent.Kind.FORK && t.ppid() != t.pid() && t.time() >= start) {
                fork = t;
                start = t.time();
            }
        }
        long exec = Long.MIN_VALUE;
        for (ThreadEvent t : threads) {
            if (t.pid() == pid && t.kind() == ThreadEvent.Kind.COMM && t.exec() && t.time() <= time && t.time() >= start) {
                exec = Math.max(exec, t.time());
            }
        }
        if (fork != null && exec == Long.MIN_VALUE && depth < MAX_FORK_DEPTH && fork.ppid() != pid) {
            TreeMap<Long, Mapping> parent = new TreeMap<>(Long::compareUnsigned);
            build(parent, fork.ppid(), fork.time(), depth + 1);
            for (Mapping m : parent.values()) {
                if (m.pid() != -1) {
                    place(space, m);
                }
            }
        }
        long from = Math.max(start, exec);
        List<Mapping> own = new ArrayList<>();
        for (Mapping m : all) {
            if (m.pid() == pid && m.time() <= time && (m.time() >= from || from == Long.MIN_VALUE)) {
                own.add(m);
            }
        }
        own.sort(Comparator.comparingLong(Mapping::time)); // stable: file order among equal times
        for (Mapping m : own) {
            place(space, m);
        }
    }

    /** Puts {@code m} into the address space, cutting what it overlaps (unsigned addresses). */
    private static void place(TreeMap<Long, Mapping> space, Mapping m) {
        if (m.length() <= 0) {
            return;
        }
        long start = m.start();
        long end = m.end();
        List<Mapping> cut = new ArrayList<>();
        for (Map.Entry<Long, Mapping> e : space.entrySet()) {
            Mapping o = e.getValue();
            if (Long.compareUnsigned(o.start(), end) < 0 && Long.compareUnsigned(start, o.end()) < 0) {
                cut.add(o);
            }
        }
        for (Mapping o : cut) {
            space.remove(o.start());
            if (Long.compareUnsigned(o.start(), start) < 0) {
                space.put(o.start(), piece(o, o.start(), start));
            }
            if (Long.compareUnsigned(end, o.end()) < 0) {
                space.put(end, piece(o, end, o.end()));
            }
        }
        space.put(start, m);
    }

    private static Mapping piece(Mapping o, long from, long to) {
        return new Mapping(o.pid(), o.tid(), from, to - from, o.pgoff() + (from - o.start()), o.path(), o.buildId(), o.time(),
                o.prot(), o.kernel());
    }
}
