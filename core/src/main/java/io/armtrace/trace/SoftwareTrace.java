package io.armtrace.trace;

/**
 * Elements of software and hardware-event trace (ITM and DWT over SWO, the System Trace Macrocell): what a
 * program wrote to a stimulus port or channel, and what the DWT reports of exceptions, PC samples, data
 * accesses and its event counters. They carry no instructions: views that follow program flow pass them by.
 */
public sealed interface SoftwareTrace extends TraceElement
        permits SoftwareMessage, LocalTimestamp, PcSample, ExceptionTrace, DataTrace, EventCounterWrap {
}
