import Conformance
import CurlTransport
import FlowRecording
import Foundation
import OrderedJSON
import ReferenceBackend
import SDKSeams
import Synchronization
import TestSupport
import Testing

/// What a run lets the backend it grades make it do (issue 33, point 6): requests only to the
/// allowed origins, answers only up to the cap and only when a cassette can hold them, and
/// cassettes redacted. Every server is on loopback; "another origin" is a second loopback server.
@Suite(.serialized) struct BackendBoundaryTests {
    /// A loopback server that counts the requests it gets and answers 404.
    final class OtherOrigin: Sendable {
        final class Count: Sendable { let value = Mutex(0) }
        let server: PlainHTTPServer
        let count = Count()
        var requests: Int { count.value.withLock { $0 } }

        init() async throws {
            let count = self.count
            server = try await PlainHTTPServer.start(port: 0) { _ in
                count.value.withLock { $0 += 1 }
                return .init(status: 404, body: Array("no".utf8))
            }
        }
    }

    /// Changes the answers of the backend on their way to the suite.
    struct RewritingTransport: HTTPTransport {
        let base: any HTTPTransport
        let rewrite: @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            rewrite(request, try await base.send(request))
        }
    }

    static func curl(cap: Int? = CurlTransport.defaultMaximumResponseBody) -> CurlTransport {
        CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 5, maximumResponseBody: cap))
    }

    static func run(
        _ backend: ReferenceBackend, cases: String, transport: any HTTPTransport,
        configure: (inout ConformanceSuite.Options) -> Void = { _ in }
    ) async -> (ConformanceSuite, ConformanceReport) {
        var options = ConformanceSuite.Options(backendURL: backend.baseURL)
        options.pattern = CasePattern(cases)
        options.userPrefix = "conform-boundary"
        configure(&options)
        let suite = ConformanceSuite(
            options: options, transport: transport, random: SeededSource(seed: 33), sdkClock: SystemClock(),
            clock: SystemConformanceClock())
        return (suite, await suite.run())
    }

    /// The client settings with `certivoxURL` pointing at `url`.
    static func pointingCertivox(at url: String) -> @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse {
        { request, response in
            guard request.url.hasSuffix("/clientSettings"), let json = try? JSONParser.parse(response.body),
                var members = json.objectMembers, let at = members.firstIndex(where: { $0.name == "certivoxURL" })
            else { return response }
            members[at] = .init("certivoxURL", .string(url))
            var changed = response
            changed.body = Array(JSONWriter.compact(.object(members)).utf8)
            changed.headers = ["Content-Type": "application/json"]
            return changed
        }
    }

    @Test func aSettingOnAnotherOriginIsNotFollowedUnlessAllowed() async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "boundary-origin"))
        let other = try await OtherOrigin()
        let dta = other.server.baseURL + "/dta2/"
        let transport = RewritingTransport(base: Self.curl(), rewrite: Self.pointingCertivox(at: dta))
        let (_, refused) = await Self.run(backend, cases: "pass2.single-use", transport: transport)
        #expect(other.requests == 0, "the suite followed certivoxURL to \(dta)")
        let verdict = try #require(refused.results.first?.verdict)
        #expect(verdict.kind == .fail, "\(verdict)")
        #expect(
            verdict.reason.contains("certivoxURL") && verdict.reason.contains(dta)
                && verdict.reason.contains("--allow-origin"),
            "\(verdict)")
        #expect(refused.failsRun)

        let (_, allowed) = await Self.run(backend, cases: "pass2.single-use", transport: transport) { options in
            options.allowedOrigins = [other.server.baseURL]
        }
        #expect(other.requests > 0, "an allowed origin was not asked")
        #expect(allowed.results.first?.verdict.reason.contains("not followed") == false)
        await other.server.stop()
        await backend.stop()
    }

    @Test(arguments: [
        ("10001 fields", HTTPHeaders((0..<10_001).map { HTTPHeaders.Field(name: "X-F\($0)", value: "v") })),
        ("a field named Bad Name", HTTPHeaders([HTTPHeaders.Field(name: "Bad Name", value: "v")])),
    ])
    func answersACassetteCannotHoldFailTheirCaseAndEveryCassetteReadsBack(_ label: String, _ extra: HTTPHeaders)
        async throws
    {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "boundary-headers"))
        let transport = RewritingTransport(base: Self.curl()) { request, response in
            guard request.url.hasSuffix("/clientSettings") else { return response }
            var changed = response
            for field in extra { changed.headers.append(name: field.name, value: field.value) }
            return changed
        }
        let (_, report) = await Self.run(backend, cases: "settings.reachable,pass2.single-use", transport: transport)
        await backend.stop()
        for result in report.results {
            #expect(
                result.verdict.kind == .fail && result.verdict.reason.contains("cannot be recorded in a cassette"),
                "\(label): \(result.verdict)")
        }
        let directory = try TemporaryDirectory.make("boundary-cassettes")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try report.writingCassettes(to: directory)
        for result in written.results {
            let path = try #require(result.cassettePath)
            #expect(throws: Never.self, "\(label): \(path)") { _ = try CassetteFile.read(path) }
        }
    }

    @Test func anAnswerOverTheCapFailsItsCase() async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "boundary-cap"))
        let cap = 64
        let (suite, report) = await Self.run(
            backend, cases: "settings.reachable,settings.required-urls", transport: Self.curl(cap: cap)
        ) {
            $0.maximumBodySize = cap
        }
        #expect(await suite.probe() == nil, "an answer over the cap is an answer")
        await backend.stop()
        #expect(report.results.count == 2)
        for result in report.results {
            #expect(
                result.verdict.kind == .fail && result.verdict.reason.contains("is more than \(cap) bytes"),
                "\(result.verdict)")
        }
        #expect(report.failsRun)
    }

    @Test func cassettesAndReportsAreRedacted() async throws {
        let backend = try await ReferenceBackend.start(BackendConfiguration(seed: "boundary-redact"))
        let (_, report) = await Self.run(backend, cases: "pass2.single-use", transport: Self.curl()) {
            $0.redactedFields = ["authOTT", "regOTT"]
        }
        await backend.stop()
        let result = try #require(report.results.first)
        let cassette = try #require(result.cassette)
        #expect(Set(cassette.redactions.map(\.field)).isSuperset(of: ["authOTT", "regOTT"]), "\(cassette.redactions)")
        #expect(result.exchanges.contains { $0.responseBody.contains("{{authOTT") })
    }
}
