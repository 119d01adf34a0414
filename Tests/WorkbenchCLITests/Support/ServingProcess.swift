import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built `mpin-workbench` running in the background (`serve`, `serve --cassette`), for the tests
/// that talk to it: its two output streams are read as they come, a test waits (a bounded time)
/// for a line of its standard output, sends requests to it on 127.0.0.1, then interrupts it as
/// Ctrl-C would and gets all it wrote.
final class ServingProcess: @unchecked Sendable {
    private let process = Process()
    /// Standard output and standard error as read so far.
    private let output = Mutex((stdout: Data(), stderr: Data()))
    private let readers = DispatchGroup()

    /// Starts the executable with `arguments` in the repository root.
    init(_ arguments: [String]) throws {
        guard let executable = WorkbenchProcess.path else { throw WorkbenchProcess.Missing() }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: RepoPaths.root)
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try WorkbenchProcess.launch(process)
        for (pipe, isError) in [(out, false), (err, true)] {
            readers.enter()
            // A thread of its own, as WorkbenchProcess.run's readers: Dispatch's pool can be taken
            // by the whole suite, and the lines a test waits for would wait with it.
            Thread.detachNewThread {
                while true {
                    let data = pipe.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    self.output.withLock { if isError { $0.stderr.append(data) } else { $0.stdout.append(data) } }
                }
                self.readers.leave()
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The first value `find` gets from a line of standard output within `seconds`, else nil (also
    /// when the process ends first).
    func waitForOutput<Value>(within seconds: Double, _ find: (Substring) -> Value?) -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = output.withLock { String(decoding: $0.stdout, as: UTF8.self) }
            if let value = text.split(separator: "\n").lazy.compactMap(find).first { return value }
            if ChildExit.poll(process) != nil { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// Sends SIGINT (Ctrl-C), waits at most `seconds` for the process to end (then kills it), and
    /// returns what it wrote, as `WorkbenchProcess.run` does.
    func interrupt(waiting seconds: Double = 30) -> WorkbenchProcess.Run {
        if process.isRunning { process.interrupt() }
        return finish(waiting: seconds)
    }

    /// Sends `number` (SIGINT, SIGTERM) to the process if it still runs.
    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Waits at most `seconds` for the process to end (then kills it), and returns what it wrote.
    func finish(waiting seconds: Double) -> WorkbenchProcess.Run {
        // Its end read with waitid, as WorkbenchProcess.run does (`ChildExit`).
        let (ending, timedOut) = ChildExit.end(process, within: seconds)
        _ = readers.wait(timeout: .now() + 10)
        let (stdout, stderr) = output.withLock { ($0.stdout, $0.stderr) }
        return WorkbenchProcess.Run(
            status: ending?.status ?? -1, exited: !timedOut && ending?.exited == true,
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// One HTTP/1.1 exchange with 127.0.0.1:`port` on a connection of its own (`Connection: close`):
    /// the whole response as text. Every socket call waits at most `seconds`; the response is read
    /// up to 1 MiB.
    static func get(port: Int, _ target: String, seconds: Int = 30) throws -> String {
        try exchange(
            port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n",
            seconds: seconds)
    }

    /// `request` (a whole request, head and body, as text) sent to 127.0.0.1:`port` on a connection
    /// of its own, and what came back until the server closed it, as `get` does.
    static func exchange(port: Int, _ requestText: String, seconds: Int = 30) throws -> String {
        struct Failure: Error, CustomStringConvertible { let description: String }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw Failure(description: "connect() to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        let request = Array(requestText.utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < 1 << 20 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else {
                throw Failure(description: "recv() failed: errno \(errno); received: \(received.count) bytes")
            }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
