import OrderedJSON

/// The text of a vector file in the pieces `VectorGenerator.write(to:)` writes as the tests are
/// computed: what comes before the first group, each group's opening and closing, each test, and
/// what comes after the last group. Written in order, the pieces are exactly
/// `JSONWriter.canonical` of the whole document (two-space indentation, members in the order the
/// document holds them, which the generator sorts by their UTF-8 bytes, a trailing newline).
///
/// The layout is made from the document without its tests: `testGroups` holds each group with an
/// empty `tests` array. Values other than the tests are rendered by `JSONWriter.canonical` and
/// indented to their depth; the canonical form has raw line breaks only between items (a line
/// break inside a string is escaped as `\n`), so indenting every line break is exact.
struct VectorFileLayout: Sendable {
    /// The document's opening and its members before `testGroups`, up to `"testGroups": [`.
    let head: String
    /// `]` closing `testGroups`, the document's later members and its closing `}` with the newline.
    private let tails: (empty: String, nonEmpty: String)
    /// For each group: its opening and members before `tests`, up to `"tests": [`.
    private let groupStarts: [String]
    /// For each group: `]` closing `tests`, its later members and its closing `}`.
    private let groupEnds: [(empty: String, nonEmpty: String)]

    /// The depths (in indentation steps) of a group in `testGroups` and of a test in `tests`.
    static let groupDepth = 2, testDepth = 4

    /// - Precondition: `document` is an object with a `testGroups` array of objects that each have a
    ///   `tests` member (as the generator builds them).
    init(document: JSONValue) {
        let root = document.objectMembers ?? []
        let groupsAt = root.firstIndex { $0.name == "testGroups" } ?? root.count
        var head = "{"
        for (position, member) in root[..<groupsAt].enumerated() {
            head += Self.member(member, depth: 1, first: position == 0)
        }
        head += (groupsAt == 0 ? "" : ",") + "\n" + Self.indent(1) + JSONWriter.quoted("testGroups") + ": ["
        self.head = head
        var after = ""
        for member in root.dropFirst(groupsAt + 1) { after += Self.member(member, depth: 1, first: false) }
        tails = (empty: "]" + after + "\n}\n", nonEmpty: "\n" + Self.indent(1) + "]" + after + "\n}\n")

        var starts: [String] = [], ends: [(empty: String, nonEmpty: String)] = []
        let groups = root.indices.contains(groupsAt) ? root[groupsAt].value.arrayValue ?? [] : []
        for (index, group) in groups.enumerated() {
            let members = group.objectMembers ?? []
            let testsAt = members.firstIndex { $0.name == "tests" } ?? members.count
            var start = (index == 0 ? "" : ",") + "\n" + Self.indent(Self.groupDepth) + "{"
            for (position, member) in members[..<testsAt].enumerated() {
                start += Self.member(member, depth: Self.groupDepth + 1, first: position == 0)
            }
            start +=
                (testsAt == 0 ? "" : ",") + "\n" + Self.indent(Self.groupDepth + 1) + JSONWriter.quoted("tests") + ": ["
            starts.append(start)
            var later = ""
            for member in members.dropFirst(testsAt + 1) {
                later += Self.member(member, depth: Self.groupDepth + 1, first: false)
            }
            let close = later + "\n" + Self.indent(Self.groupDepth) + "}"
            ends.append((empty: "]" + close, nonEmpty: "\n" + Self.indent(Self.groupDepth + 1) + "]" + close))
        }
        groupStarts = starts
        groupEnds = ends
    }

    /// Group `index`'s opening, up to its `"tests": [`.
    func groupStart(_ index: Int) -> String { groupStarts[index] }

    /// Group `index`'s closing; `empty` when it has no test.
    func groupEnd(_ index: Int, empty: Bool) -> String { empty ? groupEnds[index].empty : groupEnds[index].nonEmpty }

    /// A test object as an item of its group's `tests`; `first` when it is the group's first.
    func test(_ test: JSONValue, first: Bool) -> String {
        (first ? "" : ",") + "\n" + Self.indent(Self.testDepth) + Self.rendered(test, depth: Self.testDepth)
    }

    /// The document's closing; `empty` when it has no group.
    func tail(empty: Bool) -> String { empty ? tails.empty : tails.nonEmpty }

    /// `,`, a line break and the indentation, then `"name": value` at `depth`.
    private static func member(_ member: JSONValue.Member, depth: Int, first: Bool) -> String {
        (first ? "" : ",") + "\n" + indent(depth) + JSONWriter.quoted(member.name) + ": "
            + rendered(member.value, depth: depth)
    }

    /// `value` in canonical form as it appears at `depth`: every line break followed by the
    /// indentation of that depth, without the document's trailing newline.
    static func rendered(_ value: JSONValue, depth: Int) -> String {
        let text = JSONWriter.canonical(value).dropLast()
        guard depth > 0 else { return String(text) }
        return text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent(depth))
    }

    static func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }
}
