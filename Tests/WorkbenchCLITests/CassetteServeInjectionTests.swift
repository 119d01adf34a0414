import FlowRecording
import Foundation
import MilagroRecording
import TestSupport
import Testing

/// `cassette serve --secret` fills a placeholder only where the redactor put it: a `{{pin}}`
/// planted in the public `message` of an answer is served as it is, and so is one whose manifest
/// entry was edited to list that answer too, since the PIN is a secret only the client holds.
@Suite struct CassetteServeInjectionTests {
    static func cassette(message: String, pinAnswerSlot: Bool) throws -> Cassette {
        let settings = CassetteEvent(
            actor: .sdk,
            .http(
                .init(
                    request: .init(method: "GET", url: "http://127.0.0.1:8005/rps/clientSettings"),
                    response: .init(
                        status: 200, headers: ["Content-Type": "application/json"],
                        body: Array(#"{"message":"\#(message)"}"#.utf8)))))
        let login = CassetteEvent(
            actor: .sdk,
            .http(
                .init(
                    request: .init(
                        method: "POST", url: "http://127.0.0.1:8005/rps/login", body: Array(#"{"pin":"1234"}"#.utf8)),
                    response: .init(status: 200, body: Array("{}".utf8)))))
        let plain = Cassette(
            tool: .init(name: "mpin-workbench", version: "test"), curve: "BN254CX", scenario: .init(name: "inject"),
            backend: .init(url: "http://127.0.0.1:8005", flavour: "milagro"), events: [settings, login])
        var redacted = Redactor(fields: Redactor.milagroFields).redact(plain)
        guard case .http(var exchange) = redacted.events[0].payload else {
            throw CassetteError(kind: .schema, message: "no exchange")
        }
        exchange.response?.body = Array(#"{"message":"{{pin}}"}"#.utf8)
        redacted.events[0].payload = .http(exchange)
        if pinAnswerSlot { redacted.redactions[0].slots.append(RedactionSlot(event: 0, part: .response)) }
        return redacted
    }

    @Test(arguments: [false, true])
    func aPlantedPINIsNeverServed(manifestEdited: Bool) throws {
        let directory = try TemporaryDirectory.make("inject")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/planted.json"
        try CassetteFile.write(try Self.cassette(message: "welcome", pinAnswerSlot: manifestEdited), to: file)
        let serving = try ServingProcess([
            "cassette", "serve", file, "--port", "0", "--secret", "pin=1234", "--order", "route",
        ])
        let port = serving.waitForOutput(within: 120) { line -> Int? in
            guard line.hasPrefix("serving cassette "), let origin = line.range(of: "http://127.0.0.1:") else {
                return nil
            }
            return Int(line[origin.upperBound...])
        }
        let answer = try port.map { try ServingProcess.get(port: $0, "/rps/clientSettings") }
        let run = serving.interrupt()
        #expect(answer?.hasSuffix(#"{"message":"{{pin}}"}"#) == true, "\(answer ?? "no port"); \(run)")
        #expect(answer?.contains("1234") == false)
        #expect(run.stderr.contains("{{pin}}") && run.stderr.contains("served unfilled"), "\(run)")
    }
}
