import Foundation
import Testing

@testable import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct InputFileTests {
    @Test func readsARegularFile() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        TestFiles.write("{\"a\": 1}\n", to: directory + "/in.json")
        #expect(try InputFile.read(directory + "/in.json") == Array("{\"a\": 1}\n".utf8))
        #expect {
            _ = try InputFile.read(directory + "/in.json", limit: 4)
        } throws: { error in
            let error = error as! FileAccessError
            return error.kind == .tooLarge(limit: 4)
                && "\(error)" == "\(directory)/in.json: cannot read: longer than 4 bytes, the most this reader takes"
        }
    }

    @Test func readsAPipeAsDevFd() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array(String(repeating: "0123456789", count: 3000).utf8)  // more than one read
        _ = text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        #expect(try InputFile.read("/dev/fd/\(ends[0])") == text)
    }

    @Test func readsAFIFOWhoseWriterComesLater() async throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The writer is a thread of its own: the read below blocks its thread, and a task could
        // wait behind it for one of the few shared threads.
        let writer = Thread {
            usleep(200_000)
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            let bytes = Array("piped".utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        #expect(try InputFile.read(fifo, idleSeconds: 10) == Array("piped".utf8))
    }

    @Test func aFIFONobodyWritesTimesOut() {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect {
            _ = try InputFile.read(fifo, idleSeconds: 1)
        } throws: { error in
            (error as! FileAccessError).kind == .timedOut(seconds: 1) && "\(error)".contains("no input came for 1 s")
        }
    }

    @Test func devicesAreReadBounded() throws {
        #expect(try InputFile.read("/dev/null") == [])
        #expect { _ = try InputFile.read("/dev/zero", limit: 100_000) } throws: { error in
            (error as! FileAccessError).kind == .tooLarge(limit: 100_000)
        }
    }

    @Test func directoriesAndMissingFilesSayWhat() {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        #expect { _ = try InputFile.read(directory) } throws: { error in
            "\(error)" == "\(directory): cannot read: is a directory, not a file to read"
        }
        #expect { _ = try InputFile.read(directory + "/missing.json") } throws: { error in
            let error = error as! FileAccessError
            return error.kind == .missing
                && "\(error)" == "\(directory)/missing.json: cannot read: No such file or directory"
        }
    }
}
