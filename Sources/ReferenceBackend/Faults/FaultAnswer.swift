import SDKSeams

/// An answer as a fault makes it: status, header fields in order, body, and how it is delivered.
///
/// The server adds `Content-Length` (the body's) and `Date` unless the fields have them, as for
/// every answer. `delivery` can cut the body short of the length it declares (the connection then
/// closes) or drop the connection before any answer; `delay` holds the answer back, at most
/// `maximumDelay` seconds.
package struct FaultAnswer: Sendable, Hashable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// A reason phrase to send as it is (the `milagro-oss` profile's `401 Wrong PIN.`).
    package var reasonPhrase: String?
    package var delivery = Delivery.whole
    /// Seconds the answer waits before it is sent, 0 to `maximumDelay`.
    package var delay: Double = 0

    /// How an answer reaches the client.
    package enum Delivery: Sendable, Hashable {
        /// As made, on a connection kept as the request asked.
        case whole
        /// `Content-Length: declared`, fewer bytes of body (`body`), then the connection closes.
        case truncated(declared: Int)
        /// Nothing: the connection closes without an answer.
        case dropped
    }

    /// The longest `delay`, in seconds: a slow answer is bounded.
    package static let maximumDelay: Double = 60

    package init(
        status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], reasonPhrase: String? = nil,
        delivery: Delivery = .whole, delay: Double = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.reasonPhrase = reasonPhrase
        self.delivery = delivery
        self.delay = delay
    }
}

/// One exchange the backend answered, for the observer that records a case's exchanges
/// (`BackendConfiguration.exchangeObserver`): the request and the answer it got, fault included.
package struct ObservedExchange: Sendable, Hashable {
    package var request: FaultRequest
    package var answer: FaultAnswer

    package init(request: FaultRequest, answer: FaultAnswer) {
        self.request = request
        self.answer = answer
    }
}
