extension MPinEvent {
    /// One request and what came back: a response (any status) or a transport error.
    public struct HTTPExchange: Sendable, Hashable {
        public var context: RequestContext
        public var request: HTTPRequest
        public var response: HTTPResponse?
        public var error: TransportError?

        public init(context: RequestContext, request: HTTPRequest, response: HTTPResponse?, error: TransportError?) {
            self.context = context
            self.request = request
            self.response = response
            self.error = error
        }
    }
}
