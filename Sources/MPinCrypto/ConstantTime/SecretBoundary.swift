/// The places where code that runs on secrets lets a value computed from them become public, and
/// the hook through which the constant-time check (`mpin-ct-check`, `make ct-check`) learns of them.
///
/// The operations on secret scalars and points neither branch nor index memory on secret data
/// (docs/security.md, "Constant-time secrets"). A few facts derived from secrets are public by design and are
/// then branched on: whether an input decodes (the caller sees the error), whether a result is the
/// point at infinity (its encoding has another length), whether a scalar has an inverse, and the
/// SERVER_2 verdict. Each such fact passes through ``declassify(_:)`` before the branch. Outside
/// the check the hook is nil and this is one load and one test of public data.
///
/// The check runs the M-Pin functions under valgrind's memcheck with the secret inputs marked
/// undefined; its hook marks a declassified value defined again, so that memcheck reports only
/// branches and memory indices on secret data that no boundary made public. The hook is a closure
/// so that this module imports nothing.
package enum SecretBoundary {
    /// Called with the bytes of each value as it becomes public; nil (the default) in normal use.
    /// Set once, before any crypto runs, by the constant-time check.
    nonisolated(unsafe) package static var declassifyHook: ((UnsafeMutableRawBufferPointer) -> Void)?

    /// Makes `value` public: a no-op unless the hook is set.
    @inline(__always)
    static func declassify<T>(_ value: inout T) {
        if let hook = declassifyHook { withUnsafeMutableBytes(of: &value, hook) }
    }

    /// `value`, declassified: for a condition on secret data that is public by design.
    @inline(__always)
    static func reveal(_ value: Bool) -> Bool {
        var v = value
        declassify(&v)
        return v
    }
}
