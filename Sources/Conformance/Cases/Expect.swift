import OrderedJSON
import SDKSeams

/// The verdicts the cases share: how a refusal, an acceptance or a JSON answer is graded.
enum Expect {
    /// A request the backend must refuse: a 4xx passes (one of `preferred`, when given; another
    /// 4xx is non-strict), a 5xx fails (the server broke on client input), a 2xx or 3xx fails
    /// (it was accepted).
    static func refusal(_ response: HTTPResponse, _ what: String, preferred: Set<Int> = []) -> Verdict {
        let wanted = preferred.sorted().map(String.init).joined(separator: " or ")
        if preferred.contains(response.status) { return .pass("\(what): refused with \(response.status)") }
        if response.isClientError {
            return preferred.isEmpty
                ? .pass("\(what): refused with \(response.status)")
                : .nonStrict("\(what): refused with \(response.status), where \(wanted) is the status for it")
        }
        if response.isServerError {
            return .fail("\(what): answered \(response.summary), a server error for the client's mistake")
        }
        return .fail("\(what): accepted, \(response.summary)")
    }

    /// Whether a JSON value is a string of lowercase hex of `bytes` bytes (any length when nil).
    static func isHex(_ value: JSONValue?, bytes: Int? = nil) -> Bool {
        guard let text = value?.stringValue, !text.isEmpty, text.utf8.count % 2 == 0,
            text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return false }
        return bytes.map { text.utf8.count == 2 * $0 } ?? true
    }

    /// Whether a value is the hex of a 65-byte uncompressed G1 point (prefix 04; the curve check
    /// is the crypto core's, in the cases that need it).
    static func isG1Hex(_ value: JSONValue?) -> Bool {
        isHex(value, bytes: 65) && value?.stringValue?.hasPrefix("04") == true
    }

    /// Whether a body carries what must never reach a client: a stack trace or source paths.
    static func leak(in text: String) -> String? {
        let markers = [
            "Traceback (most recent call last)", "File \"/", ".py\", line", "Fatal error", ".swift:", "Exception in",
            "at java.", "panic:", "goroutine ", "Stack trace", "stack trace",
        ]
        return markers.first { text.contains($0) }
    }
}

/// A JSON object literal in order, for request bodies.
func object(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONValue.Member($0.0, $0.1) })
}

/// The bytes of a text, for bodies that are not JSON.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
