package io.armtrace.trace;

/**
 * The security state of the traced core: Secure and Non-secure (the Security Extensions, TrustZone),
 * and the Realm and Root states of the Realm Management Extension (Armv9), which ETE traces.
 */
public enum SecurityState {
    SECURE, NON_SECURE, REALM, ROOT
}
