import Testing

@testable import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `AtomicFile.writeAll`: a set of files written into a folder all or none (issue 33, point 8).
@Suite struct AtomicFileFolderTests {
    @Test func aNewFolderGetsEveryFileAndNoStagingIsLeft() throws {
        let root = TestFiles.directory()
        defer { TestFiles.remove(root) }
        let names = ["a.json", "b.json", String(repeating: "n", count: 250) + ".json"]
        try AtomicFile.writeAll(names, into: root + "/out/cassettes") { Array("file \($0)\n".utf8) }
        #expect(TestFiles.list(root + "/out/cassettes") == names.sorted())
        #expect(TestFiles.read(root + "/out/cassettes/b.json") == "file 1\n")
        #expect(TestFiles.list(root + "/out") == ["cassettes"])
    }

    @Test func anExistingFolderKeepsItsOtherFilesAndGetsTheNewOnes() throws {
        let root = TestFiles.directory()
        defer { TestFiles.remove(root) }
        TestFiles.write("old a\n", to: root + "/a.json", mode: 0o600)
        TestFiles.write("other\n", to: root + "/other.json")
        try AtomicFile.writeAll(["a.json", "b.json"], into: root) { Array("new \($0)\n".utf8) }
        #expect(TestFiles.list(root) == ["a.json", "b.json", "other.json"])
        #expect(TestFiles.read(root + "/a.json") == "new 0\n")
        #expect(TestFiles.mode(root + "/a.json").map { $0 & 0o7777 } == 0o600)
        #expect(TestFiles.read(root + "/other.json") == "other\n")
    }

    /// A file that cannot be written (its place is taken by a folder) after others were: nothing of
    /// the call is left, and the files there before are as they were.
    @Test func aFailureLeavesNothingOfTheCall() throws {
        let root = TestFiles.directory()
        defer { TestFiles.remove(root) }
        TestFiles.write("old a\n", to: root + "/a.json")
        mkdir(root + "/c.json", 0o755)
        #expect(throws: FileAccessError.self) {
            try AtomicFile.writeAll(["a.json", "b.json", "c.json", "d.json"], into: root) { Array("new \($0)\n".utf8) }
        }
        #expect(TestFiles.list(root) == ["a.json", "c.json"])
        #expect(TestFiles.read(root + "/a.json") == "old a\n")
        // A new folder that cannot be completed is not made at all.
        let fresh = root + "/fresh"
        #expect(throws: FileAccessError.self) {
            try AtomicFile.writeAll(["x.json", "x.json"], into: fresh) { _ in [] }
        }
        #expect(throws: FileAccessError.self) {
            try AtomicFile.writeAll(["x.json", String(repeating: "y", count: 256)], into: fresh) { _ in [] }
        }
        #expect(TestFiles.list(root) == ["a.json", "c.json"])
    }

    @Test func aNameOf255BytesCanBeWrittenAtomically() throws {
        let root = TestFiles.directory()
        defer { TestFiles.remove(root) }
        let name = String(repeating: "z", count: 255)
        try AtomicFile.write(Array("long\n".utf8), to: root + "/" + name)
        #expect(TestFiles.list(root) == [name])
    }
}
