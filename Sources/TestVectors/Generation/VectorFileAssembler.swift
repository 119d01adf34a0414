import OrderedJSON

/// Puts a vector file together in the order it is written: the head, then each test with the
/// index of its group, then the end. Groups are opened and closed as the tests come (a group with
/// no test is written empty), so the text is exactly `VectorFileLayout`'s pieces in order, whoever
/// supplies the tests: `VectorGenerator.write(to:)` as it computes them, `VectorShardMerger` as it
/// reads them from shard files. Holds no test, only where it is.
///
/// ```swift
/// var assembler = VectorFileAssembler(layout: layout, groupCount: 2)
/// var text = assembler.start()
/// text += assembler.append(test, group: 0)
/// text += assembler.finish()
/// ```
struct VectorFileAssembler: Sendable {
    let layout: VectorFileLayout
    let groupCount: Int
    /// The group open (the last one a test went to, else the first).
    private(set) var group = 0
    /// Tests written in the open group, and in all.
    private var inGroup = 0
    private(set) var tests = 0

    init(layout: VectorFileLayout, groupCount: Int) {
        self.layout = layout
        self.groupCount = groupCount
    }

    /// The document's opening and the first group's.
    func start() -> String { layout.head + (groupCount > 0 ? layout.groupStart(0) : "") }

    /// The next test, in group `group` (the open one or a later one; those between are closed empty).
    ///
    /// - Precondition: `self.group <= group < groupCount`.
    mutating func append(_ test: JSONValue, group: Int) -> String {
        precondition(
            group >= self.group && group < groupCount, "VectorFileAssembler: group \(group) after \(self.group)")
        var out = ""
        while self.group < group {
            out += layout.groupEnd(self.group, empty: inGroup == 0)
            self.group += 1
            inGroup = 0
            out += layout.groupStart(self.group)
        }
        out += layout.test(test, first: inGroup == 0)
        inGroup += 1
        tests += 1
        return out
    }

    /// Closes the open group and the later ones (empty), then the document.
    mutating func finish() -> String {
        guard groupCount > 0 else { return layout.tail(empty: true) }
        var out = layout.groupEnd(group, empty: inGroup == 0)
        for later in (group + 1)..<max(group + 1, groupCount) {
            out += layout.groupStart(later) + layout.groupEnd(later, empty: true)
        }
        group = groupCount - 1
        inGroup = 1
        return out + layout.tail(empty: false)
    }
}
