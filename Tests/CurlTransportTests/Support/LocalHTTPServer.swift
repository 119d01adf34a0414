import CommonFormats
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for transport tests: it records every request's raw bytes
/// and answers with raw bytes chosen by the test, optionally after a delay. By default one request
/// per connection, closed after the answer; with `keepAlive`, a connection serves requests until the
/// client closes it or an answer says `Connection: close`. It counts the connections it accepted and
/// those the client closed.
final class LocalHTTPServer: @unchecked Sendable {
    struct Reply: Sendable {
        var raw: [UInt8]
        var delay: Double = 0
        /// Bytes of `a` sent after `raw`, 64 KiB at a time, until the client stops reading (a body
        /// that never has to be held by the server).
        var streamed = 0

        /// A head with `Content-Length: length` (none when nil: the body ends at the close), then
        /// `length` (or `streamed`) bytes of `a`, streamed.
        static func streaming(length: Int?, streamed: Int) -> Reply {
            var head = "HTTP/1.1 200 OK\r\n"
            if let length { head += "Content-Length: \(length)\r\n" }
            head += "Connection: close\r\n\r\n"
            return Reply(raw: Array(head.utf8), streamed: streamed)
        }

        /// A well-formed response with `Content-Length` and `Connection: close`.
        static func make(
            status: Int, reason: String = "OK", headers: [(String, String)] = [],
            body: [UInt8] = [], delay: Double = 0
        ) -> Reply {
            var head = "HTTP/1.1 \(status) \(reason)\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            return Reply(raw: Array(head.utf8) + body, delay: delay)
        }

        /// A well-formed response with `Content-Length` that leaves the connection open.
        static func open(status: Int, reason: String = "OK", body: [UInt8] = [], delay: Double = 0) -> Reply {
            let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.count)\r\n\r\n"
            return Reply(raw: Array(head.utf8) + body, delay: delay)
        }

        var closesConnection: Bool {
            String(decoding: raw.prefix(4096), as: UTF8.self).lowercased().contains("\r\nconnection: close\r\n")
        }
    }

    struct Received: Sendable {
        var raw: [UInt8]
        var head: String
        var body: [UInt8]
        var requestLine: String { head.components(separatedBy: "\r\n").first ?? "" }
    }

    let port: UInt16
    private let socketFD: Int32
    private struct Counts {
        var received: [Received] = []
        var stopped = false
        var accepted = 0
        var closedByClient = 0
        var streamedBytes = 0
    }

    private let counts = Mutex(Counts())
    private let handler: @Sendable (Received) -> Reply
    private let keepAlive: Bool
    private let loopFinished = DispatchSemaphore(value: 0)

    init(keepAlive: Bool = false, handler: @escaping @Sendable (Received) -> Reply) throws {
        self.handler = handler
        self.keepAlive = keepAlive
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.socketFD = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    var requests: [Received] {
        counts.withLock { $0.received }
    }

    /// Connections accepted so far.
    var connectionsAccepted: Int {
        counts.withLock { $0.accepted }
    }

    /// Connections the client closed (at the start of a request, with nothing of it sent).
    var connectionsClosedByClient: Int {
        counts.withLock { $0.closedByClient }
    }

    /// Bytes of streamed bodies (`Reply.streamed`) the server could send before the client stopped reading.
    var streamedBytes: Int {
        counts.withLock { $0.streamedBytes }
    }

    /// Stops accepting and closes the listening socket; returns once the port is closed. The
    /// socket is closed by the accept loop itself, so its descriptor cannot be reused under it.
    func stop() {
        let already = counts.withLock { counts in
            defer { counts.stopped = true }
            return counts.stopped
        }
        if already { return }
        shutdown(socketFD, Int32(SHUT_RDWR))
        loopFinished.wait()
    }

    private var isStopped: Bool {
        counts.withLock { $0.stopped }
    }

    private func acceptLoop() {
        defer {
            close(socketFD)
            loopFinished.signal()
        }
        while !isStopped {
            let client = accept(socketFD, nil, nil)
            if client < 0 { continue }
            if isStopped {
                close(client)
                return
            }
            counts.withLock { $0.accepted += 1 }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var data = [UInt8]()
        // Bounded: one connection serves at most this many requests.
        for _ in 0..<10_000 {
            guard let (request, used) = readRequest(client, buffered: &data) else {
                if data.isEmpty { counts.withLock { $0.closedByClient += 1 } }
                return
            }
            data.removeFirst(used)
            counts.withLock { $0.received.append(request) }
            let reply = handler(request)
            if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
            var sent = 0
            while sent < reply.raw.count {
                let count = reply.raw[sent...].withUnsafeBytes {
                    send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if count <= 0 { return }
                sent += count
            }
            if reply.streamed > 0 {
                let chunk = [UInt8](repeating: 0x61, count: 65536)
                var streamed = 0
                while streamed < reply.streamed {
                    let count = chunk.withUnsafeBytes {
                        send(client, $0.baseAddress, min($0.count, reply.streamed - streamed), Int32(MSG_NOSIGNAL))
                    }
                    if count <= 0 { return }
                    streamed += count
                    counts.withLock { $0.streamedBytes += count }
                }
            }
            if !keepAlive || reply.closesConnection { return }
        }
    }

    /// Reads one request (head and `Content-Length` body) from the connection, starting with the
    /// bytes already `buffered`; nil when the client closed the connection first.
    private func readRequest(_ client: Int32, buffered data: inout [UInt8]) -> (Received, Int)? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var expected = Int.max
        while true {
            if headEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
                headEnd = end + 4
                let head = String(decoding: data[0..<end], as: UTF8.self)
                let length =
                    head.components(separatedBy: "\r\n").compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                        return Int(parts[1].trimmingOptionalWhitespace)
                    }.first ?? 0
                expected = end + 4 + length
            }
            if data.count >= expected { break }
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        guard let bodyStart = headEnd else { return nil }
        let end = min(expected, data.count)
        let request = Received(
            raw: Array(data[0..<end]), head: String(decoding: data[0..<(bodyStart - 4)], as: UTF8.self),
            body: Array(data[bodyStart..<end]))
        return (request, end)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<(index + needle.count)]) == needle
        {
            return index
        }
        return nil
    }
}
