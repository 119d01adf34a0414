/// The random-number seam: every random byte the SDK uses comes from here.
///
/// Live code uses `SystemRandomSource`; recording wraps it, replay serves recorded bytes back.
/// Calls may come from several tasks at once.
public protocol RandomSource: Sendable {
    func randomBytes(count: Int) -> [UInt8]
}
