import FlowRecording
import OrderedJSON
import Testing

@testable import LegacyImport
@testable import Scenarios

/// The legacy importer range-checks what it reads, with the file, the line and the field.
@Suite struct LegacyRecordingLimitsTests {
    static func item(
        status: String = "200", success: String = "true", headers: String = "{}",
        url: String = "http://127.0.0.1:8005/rps/x",
        context: String = "@testInit"
    ) -> String {
        #"{ "request" : { "method" : "GET", "url" : "# + "\"\(url)\"" + #", "data" : "", "context" : "#
            + "\"\(context)\"" + #" },"#
            + "\n" + #"  "response" : { "success" : "# + success + #", "error" : "", "httpStatus" : "# + status
            + #", "headers" : "# + headers
            + #", "data" : "" } }"#
    }

    func error(_ items: [String]) -> LegacyImporter.ImportError? {
        do {
            _ = try LegacyImporter(tool: .init(name: "t", version: "1")).importFile(
                Array(("[\n" + items.joined(separator: ",\n") + "\n]").utf8),
                path: "r.json")
            Issue.record("imported but should not have been")
            return nil
        } catch {
            return error
        }
    }

    @Test func statusesOutOfRangeNameTheLine() throws {
        let failed = try #require(error([Self.item(), Self.item(status: "-1", success: "false")]))
        #expect(
            failed.description
                == "r.json:5: exchange 1: response.httpStatus is -1 though response.success is false (a transport failure has 0)"
        )
        let negative = try #require(error([Self.item(status: "-1")]))
        #expect(
            negative.description
                == "r.json:3: exchange 0: response.httpStatus -1 is not an HTTP status (100 to 599) though response.success is true"
        )
        let huge = try #require(error([Self.item(status: "1e400")]))
        #expect(huge.line == 3 && huge.message.contains("1e400"), "\(huge)")
    }

    @Test func headersAreBoundedTokensWithoutLineBreaks() throws {
        let many = "{" + (0...1_000).map { "\"X-\($0)\": \"v\"" }.joined(separator: ", ") + "}"
        let tooMany = try #require(error([Self.item(headers: many)]))
        #expect(
            tooMany.line == 3
                && tooMany.message == "exchange 0: response.headers has 1001 fields; a response has at most 1000")
        let name = try #require(error([Self.item(headers: #"{"Bad Name": "v"}"#)]))
        #expect(
            name.line == 3 && name.message.hasPrefix("exchange 0: response.headers: \"Bad Name\" is not a header name"))
        let value = try #require(error([Self.item(headers: #"{"X": "a\r\nInjected: 1"}"#)]))
        #expect(value.message.hasPrefix("exchange 0: response.headers.X has a control character"))
    }

    @Test func urlsAreAbsoluteAndWhole() throws {
        let empty = try #require(error([Self.item(url: "")]))
        #expect(empty.message == "exchange 0: request.url: empty; a request has an absolute URL")
        let spaced = try #require(error([Self.item(url: "http://x/a b")]))
        #expect(spaced.message == "exchange 0: request.url: \"http://x/a b\" holds a space or a control character")
    }

    @Test func theNumberOfExchangesIsBounded() throws {
        let items = Array(repeating: Self.item(), count: LegacyRecording.maximumExchanges + 1)
        let found = try #require(error(items))
        #expect(found.message == "10001 recorded exchanges; a file may hold at most 10000")
        #expect(found.line == 2 + 2 * LegacyRecording.maximumExchanges)
    }

    /// A sequential run repeats the earlier tests' exchanges in each later cassette: bounded in all.
    @Test func aSuiteImportIsBoundedInEvents() throws {
        let suite = LegacySuite(name: "big", tests: (0..<300).map { LegacySuite.Test(name: "t\($0)", steps: []) })
        let text = "[\n" + Array(repeating: Self.item(context: "@t0"), count: 10_000).joined(separator: ",\n") + "\n]"
        #expect {
            try LegacyImporter(tool: .init(name: "t", version: "1"), suite: suite).run(Array(text.utf8), path: "r.json")
        } throws: { error in
            (error as? LegacyImporter.ImportError)?.description
                == "r.json: 10000 exchanges against the 300 tests of the suite big could need 3000000 events in all; an import writes at most 2000000"
        }
    }
}
