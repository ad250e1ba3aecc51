/**
 * The library's entry point for JVM code: open a trace ({@link io.armtrace.api.Decoder#openSnapshot a
 * snapshot directory}, {@link io.armtrace.api.Decoder#openTrace a raw trace file} or {@link
 * io.armtrace.api.Decoder#openMtb an MTB dump}) with {@link io.armtrace.api.DecodeOptions}, then decode
 * it into a callback ({@link io.armtrace.trace.ElementSink}) or iterate over its elements ({@link
 * io.armtrace.api.ElementIterator}). The command line and the Spark job go through it too.
 */
package io.armtrace.api;
