import MilagroProtocol
import OrderedJSON

/// A request a flow asks its driver to send: what `MPinClient.request` takes, as a value. The
/// driver adds the headers and formats the body (docs/protocol.md §1); the flow decides the rest.
struct FlowRequest: Sendable, Hashable {
    var context: RequestContext
    var method: HTTPMethod
    var url: String
    /// The JSON body of a non-GET request (`{}` when nil).
    var body: JSONValue?
    /// Whether a 2xx body must be JSON.
    var expectJSON: Bool

    init(
        _ context: RequestContext, _ method: HTTPMethod, _ url: String, body: JSONValue? = nil, expectJSON: Bool = true
    ) {
        self.context = context
        self.method = method
        self.url = url
        self.body = body
        self.expectJSON = expectJSON
    }
}
