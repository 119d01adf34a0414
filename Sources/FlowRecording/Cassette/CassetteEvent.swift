import CommonFormats
import SDKSeams

/// Who caused an event: the SDK (the mobile client) or the browser (the web session that shows an
/// access number or QR code and polls for the result). Other names are kept as written.
public struct EventActor: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let sdk = EventActor(rawValue: "sdk")
    public static let browser = EventActor(rawValue: "browser")
    /// The DeviceSecurity connector on the device.
    public static let device = EventActor(rawValue: "device")
    /// Operator steps of a scenario (revocation, faults) that talk to the backend directly.
    public static let admin = EventActor(rawValue: "admin")
    /// The actors a cassette may name; `cassette lint` flags any other.
    public static let known: Set<EventActor> = [.sdk, .browser, .device, .admin]
    public var description: String { rawValue }
}

/// The scenario step an event belongs to.
public struct ScenarioStep: Sendable, Hashable, CustomStringConvertible {
    /// 0-based index of the step in the script.
    public var index: Int
    public var name: String
    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }
    public var description: String { "step \(index) \"\(name)\"" }
}

/// A name and a text value (binary values as lowercase hex), in order.
public struct NamedField: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
    public var description: String { "\(name)=\(value)" }
}

/// One entry of a cassette's timeline.
public struct CassetteEvent: Sendable, Hashable {
    public var actor: EventActor
    public var step: ScenarioStep?
    public var payload: Payload

    public init(actor: EventActor = .sdk, step: ScenarioStep? = nil, _ payload: Payload) {
        self.actor = actor
        self.step = step
        self.payload = payload
    }

    public enum Payload: Sendable, Hashable {
        case call(Call)
        case http(HTTPExchange)
        case crypto(CryptoStep)
        case random(RandomDraw)
        case clock(ClockRead)
    }

    /// The event's `type` in the file: `call`, `http`, `crypto`, `random` or `clock`.
    public var type: String {
        switch payload {
        case .call: "call"
        case .http: "http"
        case .crypto: "crypto"
        case .random: "random"
        case .clock: "clock"
        }
    }

    /// An SDK API call: name, arguments, the returned status, the user's state afterwards and
    /// the values it returned.
    public struct Call: Sendable, Hashable {
        public var name: String
        public var arguments: [NamedField]
        public var status: Status
        public var userState: String?
        public var outputs: [NamedField]

        public init(
            name: String, arguments: [NamedField] = [], status: Status, userState: String? = nil,
            outputs: [NamedField] = []
        ) {
            self.name = name
            self.arguments = arguments
            self.status = status
            self.userState = userState
            self.outputs = outputs
        }

        /// A returned status: its code name (`OK`, `INCORRECT_PIN`, ...) and message.
        public struct Status: Sendable, Hashable {
            public var code: String
            public var message: String
            public init(code: String, message: String = "") {
                self.code = code
                self.message = message
            }
        }
    }

    /// One HTTP exchange: the request and either the response or the transport error, with
    /// per-phase timings when recorded live.
    public struct HTTPExchange: Sendable, Hashable {
        public var request: Request
        public var response: Response?
        public var error: TransportFailure?
        public var timings: HTTPTimings?
        /// Free text attached by the recorder (the legacy harness's request context, ...).
        public var context: String?

        public init(
            request: Request, response: Response? = nil, error: TransportFailure? = nil,
            timings: HTTPTimings? = nil, context: String? = nil
        ) {
            self.request = request
            self.response = response
            self.error = error
            self.timings = timings
            self.context = context
        }

        public struct Request: Sendable, Hashable {
            /// The method as sent (`GET`, `PUT`, ...).
            public var method: String
            public var url: String
            public var headers: HTTPHeaders
            public var body: [UInt8]

            public init(method: String, url: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
                self.method = method
                self.url = url
                self.headers = headers
                self.body = body
            }

            public init(_ request: HTTPRequest) {
                self.init(
                    method: request.method.rawValue, url: request.url, headers: request.headers, body: request.body)
            }
        }

        public struct Response: Sendable, Hashable {
            public var status: Int
            public var headers: HTTPHeaders
            public var body: [UInt8]

            public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
                self.status = status
                self.headers = headers
                self.body = body
            }

            public init(_ response: HTTPResponse) {
                self.init(status: response.status, headers: response.headers, body: response.body)
            }

            /// The response as a transport returns it (no timings: replayed responses are instant).
            public var httpResponse: HTTPResponse { HTTPResponse(status: status, headers: headers, body: body) }
        }

        /// A transport error: its kind (`hostNotFound`, `connectionRefused`, `timedOut`, `tls`,
        /// `invalidRequest`, `cancelled`, `responseTooLarge`, `other`), message and the transport's own code.
        public struct TransportFailure: Sendable, Hashable {
            public var kind: String
            public var message: String
            public var code: Int?

            public init(kind: String, message: String, code: Int? = nil) {
                self.kind = kind
                self.message = message
                self.code = code
            }

            public init(_ error: TransportError) {
                self.init(kind: error.kind.description, message: error.message, code: error.code)
            }

            /// The error as a transport throws it, for the request's URL.
            public func transportError(url: String) -> TransportError {
                let kinds: [String: TransportError.Kind] = [
                    "hostNotFound": .hostNotFound, "connectionRefused": .connectionRefused, "timedOut": .timedOut,
                    "tls": .tls, "invalidRequest": .invalidRequest, "cancelled": .cancelled,
                    "responseTooLarge": .responseTooLarge, "replayDivergence": .replayDivergence,
                ]
                return TransportError(kind: kinds[kind] ?? .other, message: message, url: url, code: code)
            }
        }
    }

    /// One crypto primitive (`hashId`, `mapToG1`, `extractPin`, `client1`, `client2`,
    /// `recombineG1`, ...) with its inputs and outputs as text (hex for binary values).
    public struct CryptoStep: Sendable, Hashable {
        public var primitive: String
        public var inputs: [NamedField]
        public var outputs: [NamedField]

        public init(primitive: String, inputs: [NamedField] = [], outputs: [NamedField] = []) {
            self.primitive = primitive
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// Random bytes handed to the caller, as hex (or a `{{placeholder}}` in a redacted cassette).
    public struct RandomDraw: Sendable, Hashable {
        public var purpose: String?
        public var hex: String

        public init(purpose: String? = nil, bytes: [UInt8]) {
            self.purpose = purpose
            self.hex = Hex.encode(bytes)
        }

        public init(purpose: String? = nil, hex: String) {
            self.purpose = purpose
            self.hex = hex
        }

        /// The bytes, or nil while `hex` holds a placeholder.
        public var bytes: [UInt8]? { Hex.decode(hex) }
    }

    /// A clock reading handed to the caller, in milliseconds since 1970-01-01T00:00:00Z.
    public struct ClockRead: Sendable, Hashable {
        public var purpose: String?
        public var milliseconds: Int64

        public init(purpose: String? = nil, milliseconds: Int64) {
            self.purpose = purpose
            self.milliseconds = milliseconds
        }
    }
}
