import MilagroRecording
import SDKSeams

/// The embedded backend, started: the SDK's transport to it (recorded under the stable origin),
/// the frozen clock it and the SDK share, and how to stop it.
package struct StartedEmbeddedBackend: Sendable {
    package var transport: any HTTPTransport
    package var clock: FrozenClock
    package var stop: @Sendable () async -> Void

    package init(transport: any HTTPTransport, clock: FrozenClock, stop: @escaping @Sendable () async -> Void) {
        self.transport = transport
        self.clock = clock
        self.stop = stop
    }
}
