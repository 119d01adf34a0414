import Foundation
import ReferenceBackend
import TestSupport
import Testing

/// The body timeout (`BodyDeadline`, HTTPServingTests' `BodyDeadlineTests`) on the two kinds of
/// server: the reference backend and the plain server of `serve --cassette`.
@Suite struct StalledBodyTests {
    /// 20 connections each send a head declaring 1,000 bytes and 1 byte of it, on the reference
    /// backend and on the plain server of `serve --cassette`: each gets its 408 and is closed
    /// (the timeout is 1 s here; how soon is measured by the command-line run, the machine's load
    /// makes it no fit subject for a check), all on loopback.
    @Test(arguments: ["backend", "plain"])
    func twentyStalledConnectionsAreClosed(_ server: String) async throws {
        let deadline = try #require(BodyDeadline(seconds: 1))
        let port: Int
        let stop: @Sendable () async -> Void
        if server == "backend" {
            var configuration = BackendConfiguration()
            configuration.bodyTimeout = deadline
            let backend = try await ReferenceBackend.start(configuration)
            port = backend.port
            stop = { await backend.stop() }
        } else {
            let plain = try await PlainHTTPServer.start(bodyTimeout: deadline) { _ in .init(status: 200) }
            port = plain.port
            stop = { await plain.stop() }
        }
        var connections: [RawConnection] = []
        for _ in 0..<20 {
            let connection = try RawConnection(port: port)
            try await connection.send("POST /rps/pass1 HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n{")
            connections.append(connection)
        }
        for connection in connections {
            let response = try await connection.readResponse(within: 30)
            #expect(response.statusLine.hasPrefix("HTTP/1.1 408"))
            #expect(response.field("Connection") == "close")
            #expect(await connection.isClosedByServer(within: 30))
        }
        await stop()
    }
}
