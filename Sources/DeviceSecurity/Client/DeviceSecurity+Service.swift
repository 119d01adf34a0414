import CommonFormats
import OrderedJSON
import SDKSeams

/// A service answer: the flags, code and message every operation answers with, and the rest of
/// its members (the whole answer object; a repeated name reads as its last member).
struct ServiceAnswer: Sendable {
    var result: ServiceResult
    var code: Int
    var message: String
    var members: JSONValue

    func string(_ name: String) -> String? { members[name]?.stringValue }

    /// A positive whole number of seconds; nil when missing, not a number (a boolean is not one),
    /// not whole, not positive, or more than `maximumSeconds`.
    func seconds(_ name: String) -> Int64? {
        guard let value = members[name]?.doubleValue else { return nil }
        guard value.isFinite, value == value.rounded(), value > 0, value <= Double(Self.maximumSeconds) else {
            return nil
        }
        return Int64(value)
    }

    /// The longest borrow time taken from an answer: a hundred years of 365 days, in seconds.
    static let maximumSeconds: Int64 = 3_153_600_000

    /// A whole JSON number within `range` (`65`, `65.0`, `6.5e1`); nil for anything else: a
    /// fraction, a boolean, a string, a number out of range.
    static func wholeNumber(_ value: JSONValue?, in range: ClosedRange<Int>) -> Int? {
        guard let real = value?.doubleValue, let whole = Int(exactly: real), range.contains(whole) else { return nil }
        return whole
    }
}

extension DeviceSecurity {
    /// Sends `POST <serviceURL>/<operation>` with a JSON body (keys sorted by their UTF-8 bytes,
    /// minified) and reads the answer.
    ///
    /// * A JSON object with an integer `result` is a service answer, whatever the HTTP status
    ///   (faults come as 5xx with `result` 32).
    /// * Any other answer is `ServiceFault` with code -5.
    /// * No answer is `NetworkError` with code -1; `networkError` keeps the transport error.
    func invoke(_ operation: String, _ body: [String: String]) async -> ServiceAnswer {
        let bytes = JSONWriter.minified(
            JSONValue.object(body.map { JSONValue.Member($0.key, .string($0.value)) }).sortingMembers())
        let request = HTTPRequest(
            method: .post, url: serviceURL + "/" + operation,
            headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: bytes, timeout: timeout)
        let answer: ServiceAnswer
        guard DeviceSecurity.timeoutRange.contains(timeout) else {
            let range = DeviceSecurity.timeoutRange
            let error = TransportError(
                kind: .invalidRequest,
                message: "the request time limit \(timeout) s is outside "
                    + "\(range.lowerBound) to \(Int(range.upperBound)) s; nothing was sent", url: request.url)
            emit(.http(.init(context: operation, request: request, response: nil, error: error)))
            networkError = error
            answer = ServiceAnswer(
                result: .networkError, code: DeviceResultCode.networkError,
                message: "network error (\(error.kind))", members: .object([]))
            serviceResCode = answer.code
            serviceResMsg = answer.message
            return answer
        }
        do throws(TransportError) {
            let response = try await transport.send(request)
            emit(.http(.init(context: operation, request: request, response: response, error: nil)))
            networkError = nil
            answer = Self.read(response)
        } catch {
            emit(.http(.init(context: operation, request: request, response: nil, error: error)))
            networkError = error
            answer = ServiceAnswer(
                result: .networkError, code: DeviceResultCode.networkError,
                message: "network error (\(error.kind))", members: .object([]))
        }
        serviceResCode = answer.code
        serviceResMsg = answer.message
        return answer
    }

    /// Reads an answer: a JSON object (a repeated name reads as its last member) whose `result` is a
    /// whole number from 0 to 255; `resCode` counts when it is a whole number within 32 bits (else
    /// 0, as when it is missing), `resMsg` when it is a string.
    static func read(_ response: HTTPResponse) -> ServiceAnswer {
        guard let object = try? JSONParser.parse(response.body, duplicateMembers: .keep), object.objectMembers != nil,
            let result = ServiceAnswer.wholeNumber(object["result"], in: 0...255)
        else {
            return ServiceAnswer(
                result: .serviceFault, code: DeviceResultCode.unreadableAnswer,
                message: "unreadable service answer (HTTP \(response.status))", members: .object([]))
        }
        var flags = ServiceResult(rawValue: result)
        if response.status >= 400 && !flags.contains(.serviceFault) { flags = .serviceFault }
        let code = ServiceAnswer.wholeNumber(object["resCode"], in: Int(Int32.min)...Int(Int32.max)) ?? 0
        return ServiceAnswer(result: flags, code: code, message: object["resMsg"]?.stringValue ?? "", members: object)
    }

    /// The device id, drawn from the random source the first time.
    func deviceID() -> String {
        if let id = currentState().deviceID { return id }
        let bytes = random.randomBytes(count: 16)
        emit(.random(.init(purpose: "deviceId", bytes: bytes)))
        let id = Hex.encode(bytes)
        update { $0.deviceID = id }
        return id
    }
}
