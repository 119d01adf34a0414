import FlowRecording
import OrderedJSON
import SDKSeams
import Testing

@testable import LegacyImport
@testable import Scenarios

@Suite struct LegacyImporterTests {
    /// A small file in the harness's format (values invented), with an access-number test.
    static let sample = #"""
        [
        	{ "request" : { "method" : "GET", "url" : "http://127.0.0.1:8005/rps/clientSettings", "data" : "", "context" : "@testInit" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 200,
        	                 "headers" : { "Content-Type" : "application/json; charset=UTF-8", "Server" : "TornadoServer/4.1" },
        	                 "data" : "{\"mpinAuthServerURL\": \"/rps\"}" } },
        	{ "request" : { "method" : "GET", "url" : "https://unreachable.example/rps/clientSettings", "data" : "", "context" : "@testBackend" },
        	  "response" : { "success" : false, "error" : "Couldn't resolve host name", "httpStatus" : 0, "headers" : {}, "data" : "" } },
        	{ "request" : { "method" : "PUT", "url" : "http://127.0.0.1:8005/rps/user", "data" : "{\n\t\"userId\" : \"\",\n\t\"mobile\" : 1\n}", "context" : "--@testRegister3" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 400, "headers" : { "Content-Type" : "text/html; charset=UTF-8" }, "data" : "UserId required" } },
        	{ "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/rps/getAccessNumber", "data" : "{}", "context" : "-@testAuthenticateAN1" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{\"accessNumber\": \"1234567\", \"webOTT\": \"aa\"}" } },
        	{ "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/rps/pass1", "data" : "{\"U\": \"04\"}", "context" : "bob@example.com-1111-1234567@testAuthenticateAN1" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{\"y\": \"01\"}" } },
        	{ "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/rps/accessnumber", "data" : "{\"webOTT\": \"aa\"}", "context" : "-@testAuthenticateAN1" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{\"authOTT\": \"bb\"}" } },
        	{ "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/mpinAuthenticate", "data" : "{\"mpinResponse\": {\"authOTT\": \"bb\"}}", "context" : "-@testAuthenticateAN1" },
        	  "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } }
        ]
        """#

    let importer = LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0"))

    @Test func oneCassettePerTestInOrder() throws {
        let imported = try importer.importFile(Array(Self.sample.utf8), path: "recorded.json")
        #expect(imported.map(\.test) == ["testInit", "testBackend", "testRegister3", "testAuthenticateAN1"])
        #expect(
            imported.map(\.fileName) == [
                "testInit.json", "testBackend.json", "testRegister3.json", "testAuthenticateAN1.json",
            ])
        for item in imported {
            #expect(item.cassette.scenario.name == item.test)
            #expect(item.cassette.replayMode == .methodURL)
            #expect(item.cassette.origin == .init(format: "milagro-sdk", file: "recorded.json", test: item.test))
        }
        let initCassette = imported[0].cassette
        #expect(initCassette.backend.url == "http://127.0.0.1:8005")
        guard case .http(let settings) = initCassette.events[0].payload else {
            Issue.record("not http")
            return
        }
        #expect(settings.response?.headers.fields.map(\.name) == ["Content-Type", "Server"])
        #expect(settings.context == "@testInit")
        guard case .http(let unreachable) = imported[1].cassette.events[0].payload else { return }
        #expect(unreachable.error == .init(kind: "hostNotFound", message: "Couldn't resolve host name"))
        guard case .http(let register) = imported[2].cassette.events[0].payload else { return }
        #expect(
            register.response?.status == 400
                && String(decoding: register.request.body, as: UTF8.self).contains("\"userId\" : \"\""))
    }

    @Test func browserSideExchangesGetTheBrowserActor() throws {
        let an = try importer.importFile(Array(Self.sample.utf8), path: "recorded.json")[3].cassette
        #expect(an.events.map(\.actor) == [.browser, .sdk, .browser, .browser])
    }

    /// Outside an access-number flow, a `/mpinAuthenticate` with a user-less context is the SDK's
    /// own post of the authOTT (testAuthenticate1-2), not a browser's.
    @Test func mpinAuthenticateWithoutABrowserSessionIsTheSDKs() throws {
        let file = #"""
            [
              { "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/rps/pass2", "data" : "{}", "context" : "@testAuthenticate1" },
                "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{\"authOTT\": \"cc\"}" } },
              { "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/mpinAuthenticate", "data" : "{}", "context" : "@testAuthenticate1" },
                "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } },
              { "request" : { "method" : "POST", "url" : "http://127.0.0.1:8005/mpinAuthenticate", "data" : "{}", "context" : "bob-1111@testAuthenticate2" },
                "response" : { "success" : true, "error" : "", "httpStatus" : 401, "headers" : {}, "data" : "" } }
            ]
            """#
        let imported = try importer.importFile(Array(file.utf8), path: "recorded.json")
        #expect(imported.map { $0.cassette.events.map(\.actor) } == [[.sdk, .sdk], [.sdk]])
    }

    @Test func scenarioHookAttachesTheBundledScenario() throws {
        let hooked = LegacyImporter(tool: .init(name: "mpin-workbench", version: "0.1.0")) { test in
            Cassette.Scenario(
                name: test, path: "Scenarios/\(test).yaml", script: .object([.init("name", .string(test))]))
        }
        let first = try hooked.importFile(Array(Self.sample.utf8), path: "r.json")[0].cassette
        #expect(first.scenario.path == "Scenarios/testInit.yaml")
        #expect(
            RerecordHint.command(for: first, path: "Recordings/imported/testInit.json")
                == "mpin-workbench record Scenarios/testInit.yaml --backend http://127.0.0.1:8005 --out Recordings/imported/testInit.json"
        )
    }

    @Test func importedCassetteReplaysInMethodURLMode() async throws {
        let an = try importer.importFile(Array(Self.sample.utf8), path: "recorded.json")[3].cassette
        let text = an.canonicalText
        let replayer = try Replayer(cassette: try CassetteFile.decode(Array(text.utf8)))
        #expect(replayer.mode == .methodURL)
        let browser = replayer.transport(actor: .browser), sdk = replayer.transport()
        let number = try await browser.send(
            HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/getAccessNumber", body: Array("{}".utf8)))
        #expect(String(decoding: number.body, as: UTF8.self).contains("1234567"))
        // Fresh randomness in the body does not matter in this mode.
        _ = try await sdk.send(
            HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/pass1", body: Array("{\"U\": \"05\"}".utf8)))
        _ = try await browser.send(HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/accessnumber"))
        _ = try await browser.send(HTTPRequest(method: .post, url: "http://127.0.0.1:8005/mpinAuthenticate"))
        try replayer.finish()
    }

    @Test func notAnArrayIsAnError() {
        #expect { try importer.importFile(Array("{}".utf8), path: "x.json") } throws: { error in
            (error as! LegacyImporter.ImportError).description
                == "x.json: expected a JSON array of recorded exchanges, found object"
        }
    }

    /// Issue 26, point 7: test names that make one safe name (`a/b`, `a:b`, `a b`, `a\b`, and `A_b`
    /// on a file system that ignores case) get one file each, numbered from the second on, and a
    /// note names them.
    @Test func namesThatMakeOneSafeNameGetOneFileEach() throws {
        let contexts = ["@a/b", "@a:b", "@a b", #"@a\\b"#, "@A_b", "@a_b-2"]
        let entries = contexts.map { context in
            #"{ "request" : { "method" : "GET", "url" : "http://127.0.0.1:8005/rps/clientSettings", "data" : "", "context" : ""#
                + context
                + #"" }, "response" : { "success" : true, "error" : "", "httpStatus" : 200, "headers" : {}, "data" : "{}" } }"#
        }
        let outcome = try importer.run(Array(("[" + entries.joined(separator: ",\n") + "]").utf8), path: "clash.json")
        let names = outcome.cassettes.map(\.fileName)
        #expect(outcome.cassettes.map(\.test) == ["a/b", "a:b", "a b", #"a\b"#, "A_b", "a_b-2"])
        #expect(Set(names.map { $0.lowercased() }).count == names.count, "\(names)")
        #expect(names == ["a_b.json", "a_b-2.json", "a_b-3.json", "a_b-4.json", "A_b-5.json", "a_b-2-2.json"])
        let note = try #require(outcome.notes.first { $0.contains("one safe file name") })
        #expect(note.contains("\"a:b\" is written to a_b-2.json"), "\(note)")
    }
}
