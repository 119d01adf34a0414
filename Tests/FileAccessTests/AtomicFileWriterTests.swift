import Testing

@testable import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `AtomicFile.Writer`: a file written piece by piece appears whole at `commit()` or not at all.
@Suite struct AtomicFileWriterTests {
    @Test func piecesAppearOnlyAtCommitAndReplaceTheOldFile() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/out.json"
        TestFiles.write("old\n", to: path, mode: 0o640)
        let writer = try AtomicFile.Writer(path: path)
        try writer.append("{\n")
        try writer.append(Array("  \"é\": 1\n".utf8))
        try writer.append([])
        try writer.append("}\n")
        #expect(TestFiles.read(path) == "old\n", "the destination is untouched until commit")
        #expect(TestFiles.list(directory).count == 2, "the pieces are in a temporary file next to it")
        try writer.commit()
        #expect(TestFiles.read(path) == "{\n  \"é\": 1\n}\n")
        #expect(TestFiles.mode(path).map { $0 & 0o7777 } == 0o640, "an existing file keeps its permissions")
        #expect(TestFiles.list(directory) == ["out.json"])
    }

    @Test func aWriterReleasedWithoutCommitLeavesTheOldFileAndNoTemporaryFile() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/out.json"
        TestFiles.write("old\n", to: path)
        do {
            let writer = try AtomicFile.Writer(path: path)
            try writer.append("partial")
        }
        #expect(TestFiles.read(path) == "old\n")
        #expect(TestFiles.list(directory) == ["out.json"])
        do {
            let writer = try AtomicFile.Writer(path: directory + "/new.json")
            try writer.append("partial")
        }
        #expect(TestFiles.list(directory) == ["out.json"], "a new file is not created either")
    }

    @Test func afterACommitTheWriterRefusesMore() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        let path = directory + "/out.json"
        let writer = try AtomicFile.Writer(path: path)
        try writer.append("done")
        try writer.commit()
        #expect(
            throws: FileAccessError(
                kind: .system, path: path, action: "cannot write",
                reason: "the file was already committed or abandoned after a failure")
        ) {
            try writer.append("more")
        }
        #expect(throws: FileAccessError.self) { try writer.commit() }
        #expect(TestFiles.read(path) == "done")
        #expect(TestFiles.list(directory) == ["out.json"])
    }

    @Test func whatIsNotARegularFileIsRefusedBeforeAnythingIsWritten() throws {
        let directory = TestFiles.directory()
        defer { TestFiles.remove(directory) }
        mkdir(directory + "/sub.json", 0o755)
        #expect(throws: FileAccessError.self) { _ = try AtomicFile.Writer(path: directory + "/sub.json") }
        #expect(TestFiles.list(directory) == ["sub.json"])
    }
}
