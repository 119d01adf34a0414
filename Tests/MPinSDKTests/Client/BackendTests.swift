import MPinSDK
import Testing

@Suite struct BackendTests {
    @Test func settingsAreRewrittenAndExposed() async throws {
        let harness = Harness()
        try await harness.start()
        let client = harness.client
        #expect(await client.clientParameter("registerURL") == Canned.backend + "/rps/user")
        #expect(await client.clientParameter("certivoxURL") == "https://dta.test/v3/")
        #expect(await client.clientParameter("socket") == "https://backend.test/ws")
        #expect(await client.clientParameter("accessNumberDigits") == "7")
        #expect(await client.clientParameter("setDeviceName") == "false")
        #expect(await client.clientParameter("accessNumberUseCheckSum") == "true")
        #expect(await client.clientParameter("missing") == "")
        let request = try #require(harness.transport.requests.first)
        #expect(request.method == .get)
        #expect(request.body.isEmpty)
        #expect(request.headers.isEmpty)
    }

    /// docs/protocol.md §2: cSum missing or 0 turns the checksum off.
    @Test(arguments: [nil, 0] as [Int?])
    func cSumRule(cSum: Int?) async throws {
        let harness = Harness()
        try await harness.start(settings: Canned.settings(cSum: cSum))
        #expect(await harness.client.clientParameter("accessNumberUseCheckSum") == "false")
        try await harness.client.checkAccessNumber("6419791")
        try await harness.client.checkAccessNumber("12")
    }

    @Test func checkAccessNumberWithChecksum() async throws {
        let harness = Harness()
        try await harness.start()
        try await harness.client.checkAccessNumber("4241703")
        try await harness.client.checkAccessNumber("9999990")
        for bad in ["6419791", "", "123456", "abcdefg"] {
            let error = await mpinError { () async throws(MPinError) in try await harness.client.checkAccessNumber(bad)
            }
            #expect(error?.code == .incorrectAccessNumber, "\(bad)")
        }
    }

    @Test func sixDigitAccessNumbersAreNotChecked() async throws {
        let harness = Harness()
        try await harness.start(settings: Canned.settings(digits: 6))
        try await harness.client.checkAccessNumber("6419791")
        let error = await mpinError { () async throws(MPinError) in try await harness.client.checkAccessNumber("") }
        #expect(error?.code == .incorrectAccessNumber)
    }

    @Test func unreachableBackendIsANetworkErrorAndLeavesNoBackend() async throws {
        let harness = Harness([
            Canned.clientSettings(),
            .init(method: .get, url: "https://unreachable.example/rps/clientSettings", failure: .hostNotFound),
        ])
        try await harness.client.initialize(configuration: ["backend": Canned.backend])
        let error = await mpinError { () async throws(MPinError) in
            try await harness.client.setBackend("https://unreachable.example")
        }
        #expect(error?.code == .networkError)
        #expect(error?.message.contains("hostNotFound") == true)
        #expect(error?.context.request == "GET https://unreachable.example/rps/clientSettings")
        let noBackend = await mpinError { () async throws(MPinError) in _ = try await harness.client.listUsers() }
        #expect(noBackend?.code == .flowError)
    }

    @Test(arguments: [
        (406, StatusCode.badUserAgent), (500, .httpServerError), (404, .httpRequestError), (301, .networkError),
    ])
    func settingsErrors(http: Int, expected: StatusCode) async throws {
        let harness = Harness([
            .get(Canned.backend + "/rps/clientSettings", http, "Cannot parse application for User-Agent ")
        ])
        let error = await mpinError { () async throws(MPinError) in
            try await harness.client.initialize(configuration: ["backend": Canned.backend])
        }
        #expect(error?.code == expected)
        #expect(error?.context.httpStatus == http)
    }

    @Test func badJSONIsAParseError() async throws {
        let harness = Harness([.get(Canned.backend + "/rps/clientSettings", 200, "<html>")])
        try await harness.client.initialize(configuration: [:])
        let error = await mpinError { () async throws(MPinError) in try await harness.client.testBackend(Canned.backend)
        }
        #expect(error?.code == .responseParseError)
    }

    @Test func customHeadersAndPutIfAbsent() async throws {
        let harness = Harness([Canned.clientSettings(), Canned.register()])
        try await harness.client.initialize(
            configuration: ["backend": Canned.backend],
            customHeaders: ["X-Custom": "1", "Accept": "application/json"])
        try await harness.client.setClientID("cid-1")
        let user = try await harness.client.makeNewUser(id: "u")
        try await harness.client.startRegistration(user)
        let put = harness.transport.requests[1]
        #expect(put.headers.fields.map(\.name) == ["Accept", "Content-Type", "X-Custom", "X-MIRACL-Client-ID"])
        #expect(put.headers["Accept"] == "application/json")
        #expect(put.headers["Content-Type"] == "application/json; charset=UTF-8")
        #expect(put.headers["X-MIRACL-Client-ID"] == "cid-1")
        let get = harness.transport.requests[0]
        #expect(get.headers.fields.map(\.name) == ["Accept", "X-Custom"])
    }
}
