package io.armtrace.cli;

import io.armtrace.source.TraceData;
import java.io.IOException;
import java.io.InputStream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error for long runs: shown only when output goes to a file and a person is
 * watching (a console is attached), so that pipes and tests see nothing of it.
 */
final class Progress implements AutoCloseable {
    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    static boolean wanted(boolean outputToFile) {
        return outputToFile && System.console() != null;
    }

    /** Starts a bar over {@code totalBytes} of trace named {@code task}. */
    static Progress start(String task, long totalBytes) {
        ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(Math.max(totalBytes, 1))
                .setUnit(" KiB", 1024).setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250)
                .continuousUpdate().build();
        return new Progress(bar);
    }

    /** {@code data}, counting the bytes read from where it is stored into the bar. */
    TraceData track(TraceData data) {
        return new TraceData() {
            @Override
            public String name() {
                return data.name();
            }

            @Override
            public InputStream open(java.util.function.LongConsumer storedRead) throws IOException {
                return data.open(n -> {
                    bar.stepBy(n);
                    storedRead.accept(n);
                });
            }

            @Override
            public long storedBytes() {
                return data.storedBytes();
            }
        };
    }

    @Override
    public void close() {
        bar.close();
    }
}
