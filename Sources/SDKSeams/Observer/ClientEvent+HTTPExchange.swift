extension ClientEvent {
    /// One request and what came back: a response (any status) or a transport error.
    public struct HTTPExchange: Sendable, Hashable {
        /// What the request was for: the M-Pin SDK's `RequestContext` raw value
        /// (`authenticatePass1`), the connector's service operation (`login`, `registerDevice`,
        /// `applicationLogin`).
        public var context: String
        public var request: HTTPRequest
        public var response: HTTPResponse?
        public var error: TransportError?

        public init(context: String, request: HTTPRequest, response: HTTPResponse?, error: TransportError?) {
            self.context = context
            self.request = request
            self.response = response
            self.error = error
        }
    }
}
