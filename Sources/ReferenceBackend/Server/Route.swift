import MilagroProtocol

/// What answers one endpoint of the table (MilagroProtocol's `Endpoint`): its handler, and whether
/// the router first holds the call to the endpoint's method (405 `Use GET for /…`) or the handler
/// answers every method itself (the activation link, `/authorize`, the operator's service).
struct Route: Sendable {
    /// The handler: the backend, the call, and the segment after the endpoint's path (the M-Pin
    /// ID, the D-TA's or operator's operation; nil when the path has none).
    typealias Handler = @Sendable (BackendCore, Call, String?) async throws(APIError) -> Reply

    let checksMethod: Bool
    let handle: Handler

    init(checksMethod: Bool = true, _ handle: @escaping Handler) {
        self.checksMethod = checksMethod
        self.handle = handle
    }
}
