import Hummingbird
import OrderedJSON

/// A refusal: an HTTP status and a message, sent as `{"message": …}`. Every bad input ends as one
/// of these; the backend answers 5xx only for its own faults.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// Extra members placed before `message` (the MFA platform's `{"status","message","code"}`).
    var fields: [(String, JSONValue)]

    init(_ status: HTTPResponse.Status, _ message: String, fields: [(String, JSONValue)] = []) {
        self.status = status
        self.message = message
        self.fields = fields
    }

    var body: JSONValue {
        fields.contains(where: { $0.0 == "message" })
            ? .fields(fields) : .fields(fields + [("message", .string(message))])
    }
}
