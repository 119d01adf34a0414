import Foundation
import Testing

@testable import FileAccess

/// `LineReader`: a regular file a line at a time, lines without their line feed, a bounded line
/// length, and only regular files.
@Suite struct LineReaderTests {
    static func lines(of text: String, maximum: Int = LineReader.defaultMaximumLineLength) throws -> ([String], Bool) {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        TestFiles.write(text, to: directory + "/in.txt")
        let reader = try LineReader(path: directory + "/in.txt", maximumLineLength: maximum)
        var lines: [String] = []
        while let line = try reader.nextText() {
            lines.append(line)
            #expect(reader.lineNumber == lines.count)
        }
        return (lines, reader.endsWithNewline)
    }

    @Test func splitsLines() throws {
        #expect(try Self.lines(of: "a\nbc\n\nd\n") == (["a", "bc", "", "d"], true))
        #expect(try Self.lines(of: "a\nlast") == (["a", "last"], false))
        #expect(try Self.lines(of: "") == ([], false))
        #expect(try Self.lines(of: "\n") == ([""], true))
    }

    @Test func linesAcrossBuffers() throws {
        // Lines that straddle the 64 KiB reads.
        let lines = (0..<3000).map {
            String(repeating: Character(UnicodeScalar(65 + $0 % 26)!), count: $0 % 97) + "\($0)"
        }
        #expect(try Self.lines(of: lines.joined(separator: "\n") + "\n") == (lines, true))
        let long = String(repeating: "x", count: 200_000)
        #expect(try Self.lines(of: "a\n\(long)\nb\n") == (["a", long, "b"], true))
    }

    @Test func refusesALongLineNamingIt() throws {
        #expect {
            _ = try Self.lines(of: "short\nmuch too long\n", maximum: 8)
        } throws: { error in
            let error = error as! FileAccessError
            return error.kind == .tooLarge(limit: 8) && error.action == "cannot read line 2"
        }
    }

    @Test func refusesWhatIsNotARegularFile() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        #expect {
            _ = try LineReader(path: directory)
        } throws: { error in
            (error as! FileAccessError).kind == .notRegularFile(what: "a directory")
        }
        #expect {
            _ = try LineReader(path: directory + "/absent")
        } throws: { error in
            (error as! FileAccessError).kind == .missing
        }
    }
}
