import FlowRecording
import Foundation
import LegacyImport
import OrderedJSON
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Cassettes imported from the Milagro SDK core's harness format, of tests that stand alone (each
/// initialises the SDK itself), find their bundled scenario by test name and replay (method + URL).
/// Recordings of one sequential run of the whole suite: `LegacyImportSuiteTests`.
@Suite struct LegacyImportTests {
    /// The exchanges of a recording written in the harness's format, `context` ending in `@test`.
    static func legacyFile(from cassette: Cassette, test: String) -> [UInt8] {
        let items: [JSONValue] = cassette.httpExchanges.map { _, exchange in
            let request: JSONValue = .object([
                .init("method", .string(exchange.request.method)), .init("url", .string(exchange.request.url)),
                .init("data", .string(String(decoding: exchange.request.body, as: UTF8.self))),
                .init("context", .string("@" + test)),
            ])
            let response: JSONValue
            if let answer = exchange.response {
                response = .object([
                    .init("success", .bool(true)), .init("error", .string("")),
                    .init("httpStatus", .integer(answer.status)),
                    .init("headers", .object(answer.headers.fields.map { .init($0.name, .string($0.value)) })),
                    .init("data", .string(String(decoding: answer.body, as: UTF8.self))),
                ])
            } else {
                response = .object([
                    .init("success", .bool(false)), .init("error", .string(exchange.error?.message ?? "")),
                    .init("httpStatus", .integer(0)), .init("headers", .object([])), .init("data", .string("")),
                ])
            }
            return .object([.init("request", request), .init("response", response)])
        }
        return Array(JSONWriter.compact(.array(items)).utf8)
    }

    @Test(arguments: ["testInit", "testRegister1", "testAuthenticate2", "testAuthenticateAN1", "testBackend"])
    func importedUpstreamTestReplays(_ test: String) async throws {
        let recorded = try CassetteFile.read(RepoPaths.recordings + "/\(test).json")
        // With the suite description at hand too: a test that asks for the client settings itself stands alone.
        let importer = LegacyImporter(
            tool: .init(name: "mpin-workbench", version: "0.1.0"),
            suite: try #require(try RepoPaths.library.suite(named: LegacyImporter.suiteName)))
        let imports = try importer.run(
            Self.legacyFile(from: recorded, test: test), path: "unit_tests_recorded_data.json")
        #expect(imports.suite == nil && imports.notes.isEmpty, "\(imports.notes)")
        let imported = imports.cassettes
        #expect(imported.count == 1 && imported[0].test == test && imported[0].setupExchanges == 0)
        let cassette = imported[0].cassette
        #expect(cassette.scenario.script == nil && cassette.replayMode == .methodURL)
        let outcome = await ScenarioSession.replay(cassette, path: "\(test).json", library: RepoPaths.library)
        #expect(outcome.passed, "\(outcome)")
    }
}
