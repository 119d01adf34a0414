// The reference backend's request handling, in-process: each request goes through the responder
// the server uses (reading method, path, query, headers and body, routing, the handlers, the
// profile's additions) against a fresh backend with a fixed seed and clock. Whatever the requests,
// every one gets an answer; none traps.
//
// Input: parts separated by a line `%%`. A first part made only of option words (`mfa-platform`,
// `milagro-oss`, `email`, `code`) configures the backend. Each later part is one request: a line
// `METHOD target`, header lines `Name: value` up to an empty line, then the body.
import Foundation
import FuzzSupport
import Hummingbird

@testable import HTTPServing
@testable import MPinCrypto
@testable import ReferenceBackend

struct ParsedRequest: Sendable {
    var head: HTTPRequest
    var body: [UInt8]

    init?(_ part: [UInt8]) {
        var (line, rest) = FuzzInput.firstLine(part)
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard words.count == 2, let method = HTTPRequest.Method(String(words[0])) else { return nil }
        var fields = HTTPFields()
        while !rest.isEmpty {
            let (header, after) = FuzzInput.firstLine(rest)
            rest = after
            if header.isEmpty { break }
            guard let colon = header.firstIndex(of: ":"), let name = HTTPFields.Element.Name(String(header[..<colon]))
            else { continue }
            fields.append(
                HTTPFields.Element(
                    name: name, value: header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        head = HTTPRequest(
            method: method, scheme: "http", authority: "127.0.0.1:8005", path: String(words[1]), headerFields: fields)
        body = rest
    }
}

let optionWords: Set<String> = ["mfa-platform", "milagro-oss", "email", "code"]

func configuration(_ words: Set<String>) -> BackendConfiguration {
    var configuration = BackendConfiguration(seed: "fuzz", loginTimeout: 0.2)
    if words.contains("mfa-platform") { configuration.flavour = .mfaPlatform }
    if words.contains("milagro-oss") { configuration.profile = .milagroOSS }
    if words.contains("email") { configuration.activation = .email }
    if words.contains("code") { configuration.activation = .code }
    return configuration
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var parts = FuzzInput(data, size).parts(limit: 32)
    var words: Set<String> = []
    if let first = parts.first {
        let given = Set(String(decoding: first, as: UTF8.self).split(separator: " ").map(String.init))
        if !given.isEmpty && given.isSubset(of: optionWords) {
            words = given
            parts.removeFirst()
        }
    }
    let configuration = configuration(words)
    guard configuration.problem == nil else { return 0 }
    let requests = parts.compactMap(ParsedRequest.init)
    guard !requests.isEmpty else { return 0 }
    Blocking.run {
        let core = BackendCore(
            configuration: configuration, clock: ManualBackendClock(milliseconds: 1_767_225_600_000), mail: { _ in })
        core.base.set("http://127.0.0.1:8005")
        let responder = BackendResponder(core: core)
        for request in requests {
            // As the server's ExchangeHandler: a body over the limit is refused without the router.
            let answer =
                request.body.count > responder.maximumBodySize
                ? responder.refusal(oversized: request.head)
                : await responder.respond(to: request.head, body: request.body)
            FuzzDriver.check(
                (100...599).contains(answer.head.status.code), "answered with status \(answer.head.status.code)")
        }
        core.store.holds.resolveAll()
    }
    return 0
}

FuzzDriver.run()
