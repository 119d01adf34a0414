import Testing

@testable import LegacyImport

/// The names of imported cassettes (issue 33, point 8): tests whose names differ only in their
/// Unicode form are two tests with two files, and an over-long name is shortened with a hash.
@Suite struct LegacyImporterNamesTests {
    static func file(_ tests: [String]) -> [UInt8] {
        let items = tests.map { test in
            #"{ "request" : { "method" : "GET", "url" : "http://127.0.0.1:8005/rps/clientSettings", "data" : "", "context" : "@"#
                + test
                + #"" }, "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } }"#
        }
        return Array(("[\n" + items.joined(separator: ",\n") + "\n]\n").utf8)
    }

    let importer = LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0"))

    @Test func namesInTwoUnicodeFormsAreTwoTestsWithTwoFiles() throws {
        let nfc = "testCaf\u{E9}", nfd = "testCafe\u{301}"
        let outcome = try importer.run(Self.file([nfc, "testOther", nfd]), path: "r.json")
        #expect(outcome.cassettes.count == 3, "\(outcome.cassettes.map(\.test))")
        #expect(
            outcome.cassettes.map { Array($0.test.unicodeScalars) }
                == [nfc, "testOther", nfd].map { Array($0.unicodeScalars) })
        #expect(outcome.cassettes.map(\.ownExchanges) == [1, 1, 1])
        let names = outcome.cassettes.map(\.fileName)
        #expect(names[0] == nfc + ".json" && names[2] == SafeName.of(nfd) + "-2.json", "\(names)")
        #expect(
            outcome.notes.contains { $0.contains("two Unicode forms") && $0.contains("-2.json") }, "\(outcome.notes)")
    }

    @Test func anOverLongNameIsShortenedWithAHash() throws {
        let long = "test" + String(repeating: "Long", count: 75)
        let outcome = try importer.run(Self.file(["testShort", long, long + "Other"]), path: "r.json")
        let names = outcome.cassettes.map(\.fileName)
        #expect(names.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(".json") }, "\(names)")
        #expect(Set(names).count == 3)
        #expect(
            try importer.run(Self.file(["testShort", long, long + "Other"]), path: "r.json").cassettes.map(\.fileName)
                == names, "stable")
    }

    enum SafeName {
        static func of(_ test: String) -> String { String(LegacyImporter.fileName(test).dropLast(5)) }
    }
}
