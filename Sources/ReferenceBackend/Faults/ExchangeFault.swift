import MilagroProtocol

/// A fault the backend serves on purpose at one endpoint, for grading a client (`conform --client`,
/// docs/conformance.md): it wraps that endpoint's handler. Given the request, what the backend
/// offers a fault (`FaultServices`) and `next`, which answers the request as the backend would, it
/// returns the answer to send: `next`'s changed (a member missing, a share off the curve, another
/// status, a slow or cut answer) or one of its own (a redirect, a dropped connection).
///
/// Faults are registered on the one routing table: `BackendConfiguration.faults` maps each
/// `Endpoint` to its fault, and the backend finds the endpoint of a request in that map with
/// `EndpointIndex`, as its router finds the handler (docs/backend.md, "Routes"), before the
/// profile's own front answers. An endpoint without a fault is answered as usual.
package struct ExchangeFault: Sendable {
    /// The answer the backend would give, had it no fault.
    package typealias Next = @Sendable () async -> FaultAnswer
    package typealias Handler = @Sendable (FaultRequest, FaultServices, Next) async -> FaultAnswer

    package let handle: Handler

    package init(_ handle: @escaping Handler) {
        self.handle = handle
    }

    /// The fault that answers as the backend does: what a fault's handler falls back to for the
    /// requests of its endpoint it leaves alone.
    package static let none = ExchangeFault { _, _, next in await next() }
}
