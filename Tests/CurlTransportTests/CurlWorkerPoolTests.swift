@testable import CurlTransport
import Foundation
import SDKSeams
import Testing

/// The worker pool behind `CurlTransport`: connections kept open between requests, a bounded
/// number of threads and handles however many tasks send at once, and time limits and
/// cancellation still applied to requests that wait for a worker or run on a reused handle.
/// Each test has a pool of its own, so that tests running in parallel do not share workers.
@Suite("CurlTransport worker pool")
struct CurlWorkerPoolTests {
    @Test("Consecutive requests to one origin go out on one connection, with the same bytes")
    func connectionReuse() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in .open(status: 200, body: Array(request.requestLine.utf8)) }
        defer { server.stop() }
        let pool = CurlWorkerPool(maximumWorkers: 4)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), pool: pool)
        let body = Array("{\"a\": 1}".utf8)
        for index in 0..<5 {
            let get = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/g", headers: ["X-Index": "same"]))
            #expect(get.bodyText == "GET /g HTTP/1.1", "request \(index)")
            let post = try await transport.send(HTTPRequest(method: .post, url: server.baseURL + "/p",
                                                            headers: ["Content-Type": "application/json"], body: body))
            #expect(post.status == 200)
        }
        #expect(server.connectionsAccepted == 1)
        let statistics = pool.statistics
        #expect(statistics.exchanges == 10)
        #expect(statistics.connectionsOpened == 1)
        #expect(statistics.threadsStarted == 1)
        // A reused connection carries exactly the bytes a new one would.
        let requests = server.requests
        #expect(requests.count == 10)
        let expectedGet = "GET /g HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Index: same\r\n\r\n"
        let expectedPost = "POST /p HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n{\"a\": 1}"
        for (index, request) in requests.enumerated() {
            #expect(String(decoding: request.raw, as: UTF8.self) == (index % 2 == 0 ? expectedGet : expectedPost), "request \(index)")
        }
    }

    @Test("Many tasks at once complete on a bounded number of threads, handles and connections")
    func boundedConcurrency() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in
            .open(status: 200, body: Array(request.requestLine.utf8), delay: 0.02)
        }
        defer { server.stop() }
        let pool = CurlWorkerPool(maximumWorkers: 4)
        let transport = CurlTransport(options: .init(defaultTimeout: 60), pool: pool)
        for round in 0..<2 {
            let bodies = try await sendParallelGets(32, to: server.baseURL, through: transport)
            #expect(Set(bodies) == expectedEchoes(32), "round \(round)")
        }
        let statistics = pool.statistics
        #expect(statistics.exchanges == 64)
        #expect(statistics.threadsStarted <= 4)
        #expect(statistics.peakWorkers <= 4)
        #expect(statistics.handlesCreated <= 4)
        #expect(statistics.connectionsOpened <= 4)
        #expect(server.connectionsAccepted <= 4)
    }

    @Test("A request that waits for a worker past its time limit times out without being sent")
    func timeLimitCoversTheWait() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { _ in .open(status: 200, body: Array("late".utf8), delay: 1) }
        defer { server.stop() }
        let pool = CurlWorkerPool(maximumWorkers: 1)
        let transport = CurlTransport(options: .init(defaultTimeout: 30), pool: pool)
        let first = Task { try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/first")) }
        try await Self.waitUntil { server.requests.count == 1 }
        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/second", timeout: 0.2))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.code == 28)
            #expect(error.message == "Operation timed out at the 200 ms limit with 0 bytes received")
        }
        #expect(try await first.value.bodyText == "late")
        #expect(server.requests.map(\.requestLine) == ["GET /first HTTP/1.1"])
        #expect(pool.statistics.queued == 1)
    }

    @Test("Cancelling a waiting request answers it unsent; a cancelled or timed-out transfer leaves the worker usable")
    func cancellationAndTimeoutOnReusedHandles() async throws {
        let server = try LocalHTTPServer(keepAlive: true) { request in
            request.requestLine.hasPrefix("GET /slow") ? .open(status: 200, delay: 3) : .open(status: 200, body: Array("fast".utf8))
        }
        defer { server.stop() }
        let pool = CurlWorkerPool(maximumWorkers: 1)
        let transport = CurlTransport(options: .init(defaultTimeout: 30), pool: pool)

        let running = Task { () -> TransportError? in
            do throws(TransportError) {
                _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow/running"))
                return nil
            } catch {
                return error
            }
        }
        try await Self.waitUntil { server.requests.count == 1 }
        let waiting = Task { () -> TransportError? in
            do throws(TransportError) {
                _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow/waiting"))
                return nil
            } catch {
                return error
            }
        }
        try await Self.waitUntil { pool.statistics.queued == 1 }
        waiting.cancel()
        let waitingError = await waiting.value
        #expect(waitingError?.kind == .cancelled)
        #expect(waitingError?.message == "The request was cancelled before it was sent")
        running.cancel()
        #expect(await running.value?.kind == .cancelled)

        do {
            _ = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/slow/limited", timeout: 0.3))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.kind == .timedOut)
            #expect(error.message.contains("at the 300 ms limit"), "\(error.message)")
        }

        let after = try await transport.send(HTTPRequest(method: .get, url: server.baseURL + "/fast"))
        #expect(after.bodyText == "fast")
        #expect(server.requests.map(\.requestLine) == ["GET /slow/running HTTP/1.1", "GET /slow/limited HTTP/1.1", "GET /fast HTTP/1.1"])
        let statistics = pool.statistics
        #expect(statistics.threadsStarted == 1)
        #expect(statistics.handlesCreated == 1)
    }

    @Test("The blocking variant runs on the pool and reuses its connection")
    func blockingReuse() throws {
        let server = try LocalHTTPServer(keepAlive: true) { _ in .open(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let pool = CurlWorkerPool(maximumWorkers: 2)
        let transport = CurlTransport(options: .init(defaultTimeout: 10), pool: pool)
        for _ in 0..<3 {
            #expect(try transport.sendBlocking(HTTPRequest(method: .get, url: server.baseURL + "/b")).bodyText == "ok")
        }
        #expect(server.connectionsAccepted == 1)
        #expect(pool.statistics.connectionsOpened == 1)
    }

    /// Polls `condition` every 10 ms, for at most 10 s.
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the condition did not become true within 10 s")
    }
}
