import SDKSeams

/// One thing the connector did; see `DeviceSecurityObserver`. The same kinds as the M-Pin SDK's
/// events, so that the recording layer treats both alike.
public enum DeviceSecurityEvent: Sendable, Hashable {
    /// An API call started, with its arguments.
    case call(Call)
    /// An API call ended, with its result and outputs.
    case result(Result)
    /// One HTTP exchange: the response (any status) or the transport error.
    case http(HTTPExchange)
    /// A reading of the injected clock.
    case clock(ClockRead)
    /// Random bytes drawn from the injected source (the device id).
    case random(RandomDraw)
    /// The device state could not be loaded or saved (the call went on with the state in memory).
    case storageFailure(DeviceStorageError)
    /// A "MVIDLoginResponseReady" result was delivered.
    case loginResponse(LoginResponse)

    /// A named text value.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Call: Sendable, Hashable {
        /// The Swift method (`registerDevice`, `applicationLogin`, `doLogin`, ...).
        public var name: String
        public var arguments: [Field]
        public init(name: String, arguments: [Field]) {
            self.name = name
            self.arguments = arguments
        }
    }

    public struct Result: Sendable, Hashable {
        public var name: String
        /// The flags (`[]` for the calls that return nothing).
        public var serviceResult: ServiceResult
        public var resCode: Int
        public var resMessage: String
        /// What the call left behind (`hasAccess`, `deviceHash`, `mvSessionId`, ...), in a fixed order.
        public var outputs: [Field]
        public init(name: String, serviceResult: ServiceResult, resCode: Int, resMessage: String, outputs: [Field]) {
            self.name = name
            self.serviceResult = serviceResult
            self.resCode = resCode
            self.resMessage = resMessage
            self.outputs = outputs
        }
    }

    public struct HTTPExchange: Sendable, Hashable {
        /// The service operation (`login`, `registerDevice`, `applicationLogin`).
        public var operation: String
        public var request: HTTPRequest
        public var response: HTTPResponse?
        public var error: TransportError?
        public init(operation: String, request: HTTPRequest, response: HTTPResponse?, error: TransportError?) {
            self.operation = operation
            self.request = request
            self.response = response
            self.error = error
        }
    }

    public struct ClockRead: Sendable, Hashable {
        public var purpose: String
        public var milliseconds: Int64
        public init(purpose: String, milliseconds: Int64) {
            self.purpose = purpose
            self.milliseconds = milliseconds
        }
    }

    public struct RandomDraw: Sendable, Hashable {
        public var purpose: String
        public var bytes: [UInt8]
        public init(purpose: String, bytes: [UInt8]) {
            self.purpose = purpose
            self.bytes = bytes
        }
    }
}
