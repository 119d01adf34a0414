import Foundation
import SDKSeams
import Testing

@testable import CurlTransport

/// The multi-interface driver behind `CurlTransport`: connections kept open between requests, one
/// thread and a bounded number of transfers however many tasks send at once, time limits and
/// cancellation applied to requests that wait or run, the thread ending when idle, and transfers
/// that run side by side. Each test has a driver of its own, so that tests running in parallel do
/// not share one. Replies that must stay outstanding wait at a `Gate`; every wait is bounded.
@Suite("CurlTransport multi driver")
struct CurlMultiDriverTests {
    @Test("Consecutive requests to one origin go out on one connection, with the same bytes")
    func connectionReuse() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in
            .open(status: 200, body: Array(request.requestLine.utf8))
        }
        defer { server.stop() }
        // An idle lifetime and a connection age far beyond the test's: a pause between two
        // requests (a loaded machine running the whole suite held this task for minutes) must not
        // end the thread, which closes its connections, nor age the kept connection out (libcurl's
        // 118 s; a second connection was opened so under load); the idle end has tests of its own.
        let driver = CurlMultiDriver(maximumTransfers: 4, idleLifetime: 3_600, connectionMaximumAge: 3_600)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), driver: driver)
        let body = Array("{\"a\": 1}".utf8)
        for index in 0..<5 {
            let get = try await transport.send(
                HTTPRequest(method: .get, url: server.baseURL + "/g", headers: ["X-Index": "same"]))
            #expect(get.bodyText == "GET /g HTTP/1.1", "request \(index)")
            let post = try await transport.send(
                HTTPRequest(
                    method: .post, url: server.baseURL + "/p",
                    headers: ["Content-Type": "application/json"], body: body))
            #expect(post.status == 200)
        }
        #expect(server.connectionsAccepted == 1)
        let statistics = driver.statistics
        #expect(statistics.exchanges == 10)
        #expect(statistics.connectionsOpened == 1)
        #expect(statistics.threadsStarted == 1)
        #expect(statistics.inFlight == 0)
        // A reused connection carries exactly the bytes a new one would.
        let requests = server.requests
        #expect(requests.count == 10)
        let expectedGet = "GET /g HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Index: same\r\n\r\n"
        let expectedPost =
            "POST /p HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n{\"a\": 1}"
        for (index, request) in requests.enumerated() {
            #expect(
                String(decoding: request.raw, as: UTF8.self) == (index % 2 == 0 ? expectedGet : expectedPost),
                "request \(index)")
        }
    }

    @Test("A kept connection unused for longer than the driver's connection age is not reused")
    func connectionMaximumAge() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in
            .open(status: 200, body: Array(request.requestLine.utf8))
        }
        defer { server.stop() }
        let driver = CurlMultiDriver(maximumTransfers: 4, idleLifetime: 3_600, connectionMaximumAge: 1)
        let transport = CurlTransport(options: .init(defaultTimeout: 60), driver: driver)
        _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/first"))
        // Longer than the age however loaded the machine is: a pause can only be longer.
        try await Task.sleep(for: .milliseconds(2_100))
        _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/second"))
        #expect(server.connectionsAccepted == 2)
        #expect(driver.statistics.connectionsOpened == 2)
    }

    @Test("A kept connection that the server closes is dropped from the wait, and the next request opens a new one")
    func keptConnectionClosedByServer() async throws {
        // Without keepAlive the server closes each connection after its answer, which says nothing
        // of closing: the client keeps the connection, and its socket stays registered.
        let server = try LocalHTTPServer { request in .open(status: 200, body: Array(request.requestLine.utf8)) }
        defer { server.stop() }
        let driver = CurlMultiDriver(maximumTransfers: 4)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), driver: driver)
        for index in 0..<3 {
            let answer = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/k\(index)"))
            #expect(answer.bodyText == "GET /k\(index) HTTP/1.1")
            try await Task.sleep(for: .milliseconds(100))  // the server's close reaches the kept socket
        }
        let before = driver.statistics.waits
        try await Task.sleep(for: .milliseconds(300))
        let waits = driver.statistics.waits - before
        // A closed socket left in the wait would end every wait at once.
        #expect(waits < 20, "the driver thread ended \(waits) waits in 300 ms with nothing to do")
        #expect(server.connectionsAccepted == 3)
        #expect(driver.statistics.connectionsOpened == 3)
    }

    @Test("Many tasks at once complete on one thread, with a bounded number of transfers, handles and connections")
    func boundedConcurrency() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in
            .open(status: 200, body: Array(request.requestLine.utf8), delay: 0.02)
        }
        defer { server.stop() }
        let driver = CurlMultiDriver(maximumTransfers: 4)
        let transport = CurlTransport(options: .init(defaultTimeout: 60), driver: driver)
        var opened = 0
        for round in 0..<2 {
            let bodies = try await sendParallelGets(32, to: server.baseURL, through: transport)
            #expect(Set(bodies) == expectedEchoes(32), "round \(round)")
            let statistics = driver.statistics
            #expect(statistics.connectionsOpened - opened <= 4, "round \(round)")
            opened = statistics.connectionsOpened
        }
        let statistics = driver.statistics
        #expect(statistics.exchanges == 64)
        #expect(statistics.threadsStarted == 1)
        #expect(statistics.peakInFlight <= 4)
        #expect(statistics.inFlight == 0)
        #expect(statistics.queued > 0)
        #expect(statistics.handlesCreated <= 4)
        #expect(server.connectionsAccepted <= 4)
    }

    @Test("A request that waits for room past its time limit times out then, without being sent")
    func timeLimitCoversTheWait() async throws {
        let gate = Gate()
        let server = try LocalHTTPServer(keepAlive: true) { _ in
            gate.pass()
            return .open(status: 200, body: Array("late".utf8))
        }
        defer { server.stop() }
        let driver = CurlMultiDriver(maximumTransfers: 1)
        let transport = CurlTransport(options: .init(defaultTimeout: 30), driver: driver)
        let first = PendingSend(HTTPRequest(method: .get, url: server.baseURL + "/first"), through: transport)
        try #require(try await Self.waitUntil { server.requests.count == 1 })
        let second = PendingSend(
            HTTPRequest(method: .get, url: server.baseURL + "/second", timeout: 0.2), through: transport)
        // Answered while the first reply is still held back: the time limit, not the first
        // transfer's end, ended the wait.
        try #require(try await Self.waitUntil { second.outcome != nil })
        #expect(first.outcome == nil)
        let error = try #require(second.error)
        #expect(error.kind == .timedOut)
        #expect(error.code == 28)
        #expect(error.message == "Operation timed out at the 200 ms limit with 0 bytes received")
        gate.open()
        try #require(try await Self.waitUntil { first.outcome != nil })
        #expect(first.response?.bodyText == "late")
        #expect(server.requests.map(\.requestLine) == ["GET /first HTTP/1.1"])
        #expect(driver.statistics.queued == 1)
    }

    @Test(
        "A cancelled request is answered at once: unsent while it waits, taken out while in flight; the driver stays usable"
    )
    func cancellation() async throws {
        let gate = Gate()
        let server = try LocalHTTPServer(keepAlive: true) { request in
            guard request.requestLine.hasPrefix("GET /slow") else {
                return .open(status: 200, body: Array("fast".utf8))
            }
            gate.pass()
            return .open(status: 200)
        }
        defer {
            gate.open()
            server.stop()
        }
        let driver = CurlMultiDriver(maximumTransfers: 1)
        let transport = CurlTransport(options: .init(defaultTimeout: 30), driver: driver)

        let running = PendingSend(HTTPRequest(method: .get, url: server.baseURL + "/slow/running"), through: transport)
        try #require(try await Self.waitUntil { server.requests.count == 1 })
        let waiting = PendingSend(HTTPRequest(method: .get, url: server.baseURL + "/slow/waiting"), through: transport)
        try #require(try await Self.waitUntil { driver.statistics.queued == 1 })

        // Both answered while the server still holds the running request's reply.
        waiting.cancel()
        try #require(try await Self.waitUntil { waiting.outcome != nil })
        #expect(waiting.error?.kind == .cancelled)
        #expect(waiting.error?.message == "The request was cancelled before it was sent")
        #expect(running.outcome == nil)
        running.cancel()
        try #require(try await Self.waitUntil { running.outcome != nil })
        #expect(running.error?.kind == .cancelled)
        #expect(running.error?.message == "The request was cancelled while it was in flight")
        #expect(driver.statistics.inFlight == 0)

        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow/limited", timeout: 0.3))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.message.contains("at the 300 ms limit"), "\(error.message)")
        }

        let after = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/fast"))
        #expect(after.bodyText == "fast")
        #expect(
            server.requests.map(\.requestLine) == [
                "GET /slow/running HTTP/1.1", "GET /slow/limited HTTP/1.1", "GET /fast HTTP/1.1",
            ])
        let statistics = driver.statistics
        #expect(statistics.threadsStarted == 1)
        #expect(statistics.handlesCreated == 1)
    }

    @Test("An idle driver thread ends and closes its connections; a later request starts it again")
    func idleThreadEnds() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { _ in .open(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let driver = CurlMultiDriver(idleLifetime: 0.2)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), driver: driver)
        #expect(try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/one")).bodyText == "ok")
        #expect(driver.statistics.threadsStarted == 1)
        try #require(try await Self.waitUntil { driver.statistics.threadsEnded == 1 })
        try #require(try await Self.waitUntil { server.connectionsClosedByClient == 1 })

        #expect(try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/two")).bodyText == "ok")
        let statistics = driver.statistics
        #expect(statistics.threadsStarted == 2)
        #expect(statistics.handlesCreated == 2)
        #expect(statistics.exchanges == 2)
        #expect(statistics.connectionsOpened == 2)
        #expect(server.connectionsAccepted == 2)
    }

    @Test("A transfer in flight on a slow server does not hold up a quick one")
    func slowDoesNotHoldUpQuick() async throws {
        let gate = Gate()
        let slowServer = try LocalHTTPServer(keepAlive: true) { _ in
            gate.pass()
            return .open(status: 200, body: Array("slow".utf8))
        }
        let quickServer = try LocalHTTPServer(keepAlive: true) { _ in .open(status: 200, body: Array("quick".utf8)) }
        defer {
            gate.open()
            slowServer.stop()
            quickServer.stop()
        }
        let driver = CurlMultiDriver()
        let transport = CurlTransport(options: .init(defaultTimeout: 30), driver: driver)
        let slow = PendingSend(HTTPRequest(method: .get, url: slowServer.baseURL + "/slow"), through: transport)
        try #require(try await Self.waitUntil { slowServer.requests.count == 1 })
        // The quick exchange completes while the slow reply is still held back (its 5 s limit
        // ends it if it has to wait for the slow one).
        let quick = try await transport.send(HTTPRequest(method: .get, url: quickServer.baseURL + "/quick", timeout: 5))
        #expect(quick.bodyText == "quick")
        #expect(slow.outcome == nil)
        gate.open()
        try #require(try await Self.waitUntil { slow.outcome != nil })
        #expect(slow.response?.bodyText == "slow")
        let statistics = driver.statistics
        #expect(statistics.threadsStarted == 1)
        #expect(statistics.peakInFlight == 2)
        #expect(statistics.exchanges == 2)
    }

    @Test("The blocking variant runs on the driver and reuses its connection")
    func blockingReuse() throws {
        let server = try LocalHTTPServer(keepAlive: true) { _ in .open(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let driver = CurlMultiDriver(maximumTransfers: 2)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), driver: driver)
        for _ in 0..<3 {
            #expect(try transport.sendBlocking(HTTPRequest(method: .get, url: server.baseURL + "/b")).bodyText == "ok")
        }
        #expect(server.connectionsAccepted == 1)
        #expect(driver.statistics.connectionsOpened == 1)
        #expect(driver.statistics.threadsStarted == 1)
    }

    /// Polls `condition` every 10 ms, for at most 10 s; false (and an issue) when it stayed false.
    static func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition did not become true within 10 s")
        return false
    }
}
