import FileAccess
import OrderedJSON

/// A file `vectors generate --shard K/N` wrote, read a line at a time (`LineReader`) so that
/// `vectors merge` holds one test at a time, never the file.
///
/// The file must be laid out as the generator writes it (`VectorFileLayout`: the canonical form,
/// two-space indentation, `testGroups` the root's last member, each group's tests at depth 4), which
/// is what lets a line-by-line reader find the pieces: the root's members before `testGroups`, each
/// group's members around its `tests`, and each test. Each piece is parsed as JSON, so a piece that
/// is not is reported with its line. Anything else is refused, naming the file and line.
struct VectorShardFile: Sendable {
    let path: String
    /// The root's members other than `testGroups`, in file order (`shard` among them).
    var root: [JSONValue.Member]
    var info: VectorShardInfo
    /// Each group with `tests` empty.
    var groups: [JSONValue]
    /// How many tests each group holds.
    var testsPerGroup: [Int]

    /// The most bytes one piece (the root's members, a group's, a test) may take.
    static let maximumPieceBytes = 16 << 20

    private static let layoutHint = "not laid out as `vectors generate --shard` writes it"

    /// Reads the file at `path`; `test` gets each test (tests are then parsed), its group's index
    /// and its line, in file order. Without `test`, tests are only counted.
    static func read(
        _ path: String,
        test: ((JSONValue, _ group: Int, _ line: Int) throws(VectorFileError) -> Void)? = nil
    )
        throws(VectorFileError) -> VectorShardFile
    {
        var lines = try Lines(path: path)
        func fail(_ message: String, line: Int? = nil) -> VectorFileError {
            VectorFileError(file: path, line: line ?? lines.number, message: message)
        }
        func expect(_ wanted: Set<String>, _ what: String) throws(VectorFileError) -> String {
            guard let line = try lines.next() else { throw fail("ends where \(what) should be: \(layoutHint)") }
            guard wanted.contains(line) else {
                throw fail("expected \(what), found \(Self.shown(line)): \(layoutHint)")
            }
            return line
        }

        // The root's members up to `testGroups`.
        var first = try lines.next()
        if first?.hasPrefix("\u{FEFF}") == true { first?.removeFirst() }
        guard first == "{" else { throw fail("expected `{` alone on the first line: \(layoutHint)", line: 1) }
        var head: [String] = ["{"]
        var size = 1
        var groupsEmpty = false
        while true {
            guard let line = try lines.next() else { throw fail("ends before its testGroups list: \(layoutHint)") }
            if line == #"  "testGroups": ["# { break }
            if line == #"  "testGroups": []"# {
                groupsEmpty = true
                break
            }
            size += line.utf8.count + 1
            if size > maximumPieceBytes {
                throw fail("more than \(maximumPieceBytes) bytes before testGroups: \(layoutHint)")
            }
            head.append(line)
        }
        if head.count > 1, head[head.count - 1].hasSuffix(",") { head[head.count - 1].removeLast() }
        head.append("}")
        let rootValue = try parse(head, firstLine: 1, path: path, what: "the members before testGroups")
        guard let members = rootValue.objectMembers else { throw fail("the root is not an object", line: 1) }
        guard let shardMember = rootValue[VectorShardInfo.member] else {
            throw VectorFileError(
                file: path, line: nil,
                message: "not a shard: it has no `\(VectorShardInfo.member)` member "
                    + "(vectors merge joins the files `vectors generate --shard K/N` writes)")
        }
        let info: VectorShardInfo
        switch VectorShardInfo.read(shardMember) {
        case .success(let read): info = read
        case .failure(let error): throw VectorFileError(file: path, line: nil, message: "\(error)")
        }

        var groups: [JSONValue] = [], counts: [Int] = []
        var more = !groupsEmpty
        while more {
            _ = try expect(["    {"], "a group's `{`")
            let groupLine = lines.number
            var pieces = ["{"]
            size = 1
            var testsLine: String?
            while testsLine == nil {
                guard let line = try lines.next() else {
                    throw fail("ends inside the group that starts at line \(groupLine): \(layoutHint)")
                }
                if line.hasPrefix(#"      "tests": ["#) {
                    testsLine = line
                    break
                }
                if line == "    }" || line == "    }," {
                    throw fail("the group that starts at line \(groupLine) has no tests list")
                }
                size += line.utf8.count + 1
                if size > maximumPieceBytes {
                    throw fail("the group that starts at line \(groupLine) is longer than \(maximumPieceBytes) bytes")
                }
                pieces.append(line)
            }
            var count = 0
            let later: Bool
            switch testsLine {
            case #"      "tests": [],"#: later = true
            case #"      "tests": []"#: later = false
            case #"      "tests": ["#:
                var another = true
                while another {
                    _ = try expect(["        {"], "a test's `{`")
                    let testLine = lines.number
                    var body = ["{"]
                    var testSize = 1
                    while true {
                        guard let line = try lines.next() else {
                            throw fail("ends inside the test that starts at line \(testLine): \(layoutHint)")
                        }
                        if line == "        }" || line == "        }," {
                            another = line.hasSuffix(",")
                            break
                        }
                        testSize += line.utf8.count + 1
                        if testSize > maximumPieceBytes {
                            throw fail(
                                "the test that starts at line \(testLine) is longer than \(maximumPieceBytes) bytes")
                        }
                        if test != nil { body.append(line) }
                    }
                    if let test {
                        body.append("}")
                        try test(
                            try parse(body, firstLine: testLine, path: path, what: "the test"), groups.count, testLine)
                    }
                    count += 1
                }
                later = try expect(["      ]", "      ],"], "the end of the group's tests, `]`").hasSuffix(",")
            default:
                throw fail("expected the group's `\"tests\": [`, found \(Self.shown(testsLine!)): \(layoutHint)")
            }
            pieces.append(#"      "tests": []"# + (later ? "," : ""))
            var groupEnd: String
            while true {
                guard let line = try lines.next() else {
                    throw fail("ends inside the group that starts at line \(groupLine): \(layoutHint)")
                }
                if line == "    }" || line == "    }," {
                    groupEnd = line
                    break
                }
                guard later else {
                    throw fail("expected the group's closing `}`, found \(Self.shown(line)): \(layoutHint)")
                }
                size += line.utf8.count + 1
                if size > maximumPieceBytes {
                    throw fail("the group that starts at line \(groupLine) is longer than \(maximumPieceBytes) bytes")
                }
                pieces.append(line)
            }
            pieces.append("}")
            let group = try parse(pieces, firstLine: groupLine, path: path, what: "the group")
            guard group.objectMembers != nil else { throw fail("a group is not an object", line: groupLine) }
            groups.append(group)
            counts.append(count)
            more = groupEnd.hasSuffix(",")
        }
        if !groupsEmpty { _ = try expect(["  ]"], "the end of testGroups, `]`") }
        _ = try expect(["}"], "the root's closing `}` (testGroups is its last member)")
        if let extra = try lines.next() { throw fail("more after the root's closing `}`: \(Self.shown(extra))") }
        guard lines.endsWithNewline else { throw fail("does not end with a line feed: \(layoutHint)") }
        return VectorShardFile(path: path, root: members, info: info, groups: groups, testsPerGroup: counts)
    }

    /// Parses lines (`firstLine` is the file's line of the first) as JSON.
    private static func parse(_ lines: [String], firstLine: Int, path: String, what: String) throws(VectorFileError)
        -> JSONValue
    {
        do {
            return try JSONParser.parse(lines.joined(separator: "\n"))
        } catch {
            throw VectorFileError(
                file: path, line: firstLine + error.line - 1, message: "\(what) is \(error.reportMessage)")
        }
    }

    /// A line as messages quote it, cut to 60 characters.
    private static func shown(_ line: String) -> String {
        line.count > 60 ? "`\(line.prefix(60))…`" : "`\(line)`"
    }

    /// The file's lines as text, with its errors as `VectorFileError`s.
    private struct Lines {
        let reader: LineReader
        var number: Int { reader.lineNumber }
        var endsWithNewline: Bool { reader.endsWithNewline }

        init(path: String) throws(VectorFileError) {
            do {
                reader = try LineReader(path: path, maximumLineLength: VectorShardFile.maximumPieceBytes)
            } catch {
                throw Self.converted(error)
            }
        }

        mutating func next() throws(VectorFileError) -> String? {
            do {
                guard let bytes = try reader.next() else { return nil }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw VectorFileError(file: reader.path, line: reader.lineNumber, message: "is not UTF-8 text")
                }
                return text
            } catch let error as VectorFileError {
                throw error
            } catch let error as FileAccessError {
                throw Self.converted(error)
            } catch {
                throw VectorFileError(file: reader.path, line: nil, message: "\(error)")
            }
        }

        static func converted(_ error: FileAccessError) -> VectorFileError {
            switch error.kind {
            case .missing: VectorFileError(file: error.path, line: nil, message: "no such file")
            case .notRegularFile(let what):
                VectorFileError(file: error.path, line: nil, message: "is \(what), not a vector file")
            default: VectorFileError(file: error.path, line: nil, message: "\(error.action): \(error.reason)")
            }
        }
    }
}
