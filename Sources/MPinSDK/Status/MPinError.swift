/// The error every failing SDK call throws: a Milagro status plus where it happened.
public struct MPinError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where an error came from, as far as it is known.
    public struct Context: Sendable, Hashable {
        /// The request, as `METHOD URL`, when an HTTP exchange failed.
        public var request: String?
        /// The HTTP status, when the server answered with a non-200 status.
        public var httpStatus: Int?
        /// The start of the response body (at most 512 characters), when there was one.
        public var responseBody: String?
        /// The storage location, for storage errors.
        public var path: String?

        public init(request: String? = nil, httpStatus: Int? = nil, responseBody: String? = nil, path: String? = nil) {
            self.request = request
            self.httpStatus = httpStatus
            self.responseBody = responseBody
            self.path = path
        }
    }

    public var status: MPinStatus
    public var context: Context

    public init(_ code: StatusCode, _ message: String? = nil, context: Context = Context()) {
        self.status = MPinStatus(code, message)
        self.context = context
    }

    public var code: StatusCode { status.code }
    public var message: String { status.message }

    public var description: String {
        var text = status.description
        if let request = context.request {
            text += " [\(request)" + (context.httpStatus.map { " → \($0)" } ?? "") + "]"
        }
        if let path = context.path { text += " [\(path)]" }
        return text
    }

    static func flow(_ message: String) -> MPinError { MPinError(.flowError, message) }
}
