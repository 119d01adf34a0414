import Foundation
import SDKSeams

/// A service answer: the flags, code and message every operation answers with, and the rest of
/// its members.
struct ServiceAnswer: @unchecked Sendable {
    var result: ServiceResult
    var code: Int
    var message: String
    var members: [String: Any]

    func string(_ name: String) -> String? { members[name] as? String }

    /// A positive whole number of seconds; nil when missing, not a number, not whole, not
    /// positive, or more than `maximumSeconds`.
    func seconds(_ name: String) -> Int64? {
        guard let number = members[name] as? NSNumber else { return nil }
        let value = number.doubleValue
        guard value.isFinite, value == value.rounded(), value > 0, value <= Double(Self.maximumSeconds) else { return nil }
        return Int64(value)
    }

    /// The longest borrow time taken from an answer: a hundred years of 365 days, in seconds.
    static let maximumSeconds: Int64 = 3_153_600_000

    func flag(_ name: String) -> Bool { (members[name] as? NSNumber)?.boolValue ?? false }
}

extension DeviceSecurity {
    /// Sends `POST <serviceURL>/<operation>` with a JSON body (keys sorted) and reads the answer.
    ///
    /// * A JSON object with an integer `result` is a service answer, whatever the HTTP status
    ///   (faults come as 5xx with `result` 32).
    /// * Any other answer is `ServiceFault` with code -5.
    /// * No answer is `NetworkError` with code -1; `networkError` keeps the transport error.
    func invoke(_ operation: String, _ body: [String: String]) async -> ServiceAnswer {
        let bytes = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        let request = HTTPRequest(method: .post, url: serviceURL + "/" + operation,
                                  headers: ["Content-Type": "application/json", "Accept": "application/json"],
                                  body: Array(bytes), timeout: timeout)
        let answer: ServiceAnswer
        guard DeviceSecurity.timeoutRange.contains(timeout) else {
            let range = DeviceSecurity.timeoutRange
            let error = TransportError(kind: .invalidRequest, message: "the request time limit \(timeout) s is outside "
                                           + "\(range.lowerBound) to \(Int(range.upperBound)) s; nothing was sent", url: request.url)
            emit(.http(.init(context: operation, request: request, response: nil, error: error)))
            networkError = error
            answer = ServiceAnswer(result: .networkError, code: DeviceResultCode.networkError,
                                   message: "network error (\(error.kind))", members: [:])
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
            answer = ServiceAnswer(result: .networkError, code: DeviceResultCode.networkError,
                                   message: "network error (\(error.kind))", members: [:])
        }
        serviceResCode = answer.code
        serviceResMsg = answer.message
        return answer
    }

    static func read(_ response: HTTPResponse) -> ServiceAnswer {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let result = object["result"] as? NSNumber, result.intValue >= 0, result.intValue < 256
        else {
            return ServiceAnswer(result: .serviceFault, code: DeviceResultCode.unreadableAnswer,
                                 message: "unreadable service answer (HTTP \(response.status))", members: [:])
        }
        var flags = ServiceResult(rawValue: result.intValue)
        if response.status >= 400 && !flags.contains(.serviceFault) { flags = .serviceFault }
        return ServiceAnswer(result: flags, code: (object["resCode"] as? NSNumber)?.intValue ?? 0,
                             message: object["resMsg"] as? String ?? "", members: object)
    }

    /// The device id, drawn from the random source the first time.
    func deviceID() -> String {
        if let id = currentState().deviceID { return id }
        let bytes = random.randomBytes(count: 16)
        emit(.random(.init(purpose: "deviceId", bytes: bytes)))
        let id = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        update { $0.deviceID = id }
        return id
    }
}
