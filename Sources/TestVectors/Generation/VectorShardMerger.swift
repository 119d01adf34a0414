import FileAccess
import OrderedJSON

/// Joins the files of `vectors generate --shard K/N` (K = 1…N) into the file one unsharded run
/// writes, byte for byte: `vectors merge`.
///
/// Two passes over the shards, each a line at a time (`VectorShardFile`), so memory holds one test
/// and the groups' parameters, not the files:
/// 1. every shard's root members and groups are read (tests only counted) and checked: each file is
///    a shard; together they are shards 1…N of one split, each once; they are of the same generation
///    (every root member but `shard` and `numberOfTests` equal: the header with the unsharded command,
///    suite, curve, seed, version, notes; every group's parameters equal); each holds the number of
///    tests its range says, and their groups follow on (a shard does not go back to an earlier group).
///    Nothing is written when a check fails.
/// 2. the tests are read in shard order, their tcIds checked to run on from 1 without a gap, and
///    written through `VectorFileAssembler` (the generator's own assembly) and `AtomicFile.Writer`:
///    the root without `shard`, with `numberOfTests` the whole's. A failure leaves no partial file.
///
/// Every error names the file, and the line when there is one.
public enum VectorShardMerger {
    /// What was merged.
    public struct Summary: Sendable, Hashable {
        public var shards: Int
        public var tests: Int
        public var suite: String
    }

    public static func merge(_ paths: [String], to out: String) throws(VectorFileError) -> Summary {
        guard !paths.isEmpty else { throw VectorFileError(file: out, line: nil, message: "no shard files to merge") }
        var outlines: [VectorShardFile] = []
        for path in paths { outlines.append(try VectorShardFile.read(path)) }
        let ordered = try checkSet(outlines)
        let whole = ordered[0]
        let total = whole.info.totalTests
        for shard in ordered { try checkSameGeneration(shard, as: whole) }
        try checkFollowOn(ordered)

        // The whole's skeleton: the root without `shard`, numberOfTests the whole's.
        var root = whole.root.filter { $0.name != VectorShardInfo.member }
        if let at = root.firstIndex(where: { $0.name == "numberOfTests" }) { root[at].value = .integer(total) }
        root.append(JSONValue.Member("testGroups", .array(whole.groups)))
        var assembler = VectorFileAssembler(
            layout: VectorFileLayout(document: .object(root)), groupCount: whole.groups.count)

        let writer: AtomicFile.Writer
        do {
            writer = try AtomicFile.Writer(path: out)
        } catch {
            throw VectorFileError(file: out, line: nil, message: "\(error.action): \(error.reason)")
        }
        var pending = assembler.start()
        func flush(_ limit: Int) throws(VectorFileError) {
            guard pending.utf8.count >= limit else { return }
            do {
                try writer.append(pending)
            } catch {
                throw VectorFileError(file: out, line: nil, message: "\(error.action): \(error.reason)")
            }
            pending = ""
        }
        var nextTcId = 1
        for shard in ordered {
            let read = try VectorShardFile.read(shard.path) { test, group, line throws(VectorFileError) in
                guard let tcId = test["tcId"]?.intValue, tcId == nextTcId else {
                    throw VectorFileError(
                        file: shard.path, line: line,
                        message: "a test with tcId \(test["tcId"].map { JSONWriter.compact($0) } ?? "(none)") "
                            + "where shard \(shard.info.shard) must have tcId \(nextTcId)")
                }
                guard group >= assembler.group else {
                    throw VectorFileError(
                        file: shard.path, line: line,
                        message: "tcId \(tcId) is in group \(group + 1), after tests of group \(assembler.group + 1)")
                }
                pending += assembler.append(test, group: group)
                nextTcId += 1
                try flush(1 << 20)
            }
            guard read.testsPerGroup == shard.testsPerGroup else {
                throw VectorFileError(file: shard.path, line: nil, message: "changed while it was merged")
            }
        }
        pending += assembler.finish()
        try flush(0)
        do {
            try writer.commit()
        } catch {
            throw VectorFileError(file: out, line: nil, message: "\(error.action): \(error.reason)")
        }
        return Summary(
            shards: ordered.count, tests: total,
            suite: whole.root.first { $0.name == "suite" }?.value.stringValue ?? "?")
    }

    /// The shards in order 1…N, after checking that they are each of one split, once, all there,
    /// and that each holds the tests its range says.
    static func checkSet(_ shards: [VectorShardFile]) throws(VectorFileError) -> [VectorShardFile] {
        let first = shards[0]
        let count = first.info.shard.count
        for shard in shards where shard.info.shard.count != count {
            throw VectorFileError(
                file: shard.path, line: nil,
                message: "is shard \(shard.info.shard) but \(first.path) is shard "
                    + "\(first.info.shard): shards of different splits (N = \(shard.info.shard.count) and \(count))")
        }
        var byIndex: [Int: VectorShardFile] = [:]
        for shard in shards {
            if let other = byIndex[shard.info.shard.index] {
                throw VectorFileError(
                    file: shard.path, line: nil,
                    message: "is shard \(shard.info.shard), and so is \(other.path): each shard once")
            }
            byIndex[shard.info.shard.index] = shard
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let names =
                missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw VectorFileError(
                file: first.path, line: nil,
                message: "the shards given are not all of the \(count): "
                    + "missing \(names) (\(missing.count) of \(count))")
        }
        for shard in shards {
            let held = shard.testsPerGroup.reduce(0, +)
            if held != shard.info.range.count {
                throw VectorFileError(
                    file: shard.path, line: nil,
                    message: "holds \(held) tests, but shard \(shard.info.shard) "
                        + "of \(shard.info.totalTests) holds \(shard.info.range.count) (tcIds \(shard.info.firstTcId)…)"
                )
            }
        }
        return (1...count).map { byIndex[$0]! }
    }

    /// Every root member but `shard` and `numberOfTests`, and every group's members, as in `whole`.
    static func checkSameGeneration(_ shard: VectorShardFile, as whole: VectorShardFile) throws(VectorFileError) {
        guard shard.path != whole.path || shard.info != whole.info else { return }
        let skip: Set<String> = [VectorShardInfo.member, "numberOfTests"]
        let mine = shard.root.filter { !skip.contains($0.name) }, theirs = whole.root.filter { !skip.contains($0.name) }
        func different(_ what: String, _ a: JSONValue?, _ b: JSONValue?) -> VectorFileError {
            VectorFileError(
                file: shard.path, line: nil,
                message: "not of the same generation as \(whole.path) (shard \(whole.info.shard)): "
                    + "\(what) is \(shown(a)) here, \(shown(b)) there")
        }
        if mine != theirs {
            // The generation's parameters first, by name, then whatever else differs.
            let names =
                (["suite", "curve", "seed", "header", "generatorVersion"] + mine.map(\.name) + theirs.map(\.name))
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            for name in names {
                let a = mine.first { $0.name == name }?.value, b = theirs.first { $0.name == name }?.value
                guard a != b else { continue }
                if name == "header", let x = a?.arrayValue, let y = b?.arrayValue,
                    let line = zip(x, y).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                {
                    if line == 0, let here = x[0].stringValue.flatMap({ try? GenerateCommandLine.parse($0).get() }),
                        let there = y[0].stringValue.flatMap({ try? GenerateCommandLine.parse($0).get() }),
                        here.count != there.count
                    {
                        throw different("the command's --count (header[0])", .string(here.count), .string(there.count))
                    }
                    throw different("header[\(line)]", x[line], y[line])
                }
                throw different("`\(name)`", a, b)
            }
            throw different("the order of the root's members", nil, nil)
        }
        if shard.info.totalTests != whole.info.totalTests {
            throw different("shard.totalTests", .integer(shard.info.totalTests), .integer(whole.info.totalTests))
        }
        if shard.groups.count != whole.groups.count {
            throw different("the number of groups", .integer(shard.groups.count), .integer(whole.groups.count))
        }
        for (g, (a, b)) in zip(shard.groups, whole.groups).enumerated() where a != b {
            let members = (a.objectMembers ?? []) + (b.objectMembers ?? [])
            let name = members.first { a[$0.name] != b[$0.name] }?.name
            throw different(
                "group \(g + 1)" + (name.map { "'s `\($0)`" } ?? "'s members"), name.flatMap { a[$0] },
                name.flatMap { b[$0] })
        }
    }

    /// A shard's first group with tests is no earlier than the group the previous shard ended in.
    static func checkFollowOn(_ ordered: [VectorShardFile]) throws(VectorFileError) {
        var reached = 0, reachedIn: VectorShardFile?
        for shard in ordered {
            guard let firstGroup = shard.testsPerGroup.firstIndex(where: { $0 > 0 }) else { continue }
            if firstGroup < reached, let reachedIn {
                throw VectorFileError(
                    file: shard.path, line: nil,
                    message: "its tests start in group \(firstGroup + 1), "
                        + "but \(reachedIn.path) (shard \(reachedIn.info.shard)) already has tests of group \(reached + 1)"
                )
            }
            reached = shard.testsPerGroup.lastIndex(where: { $0 > 0 })!
            reachedIn = shard
        }
    }

    /// A value as an error shows it: compact JSON, cut to 80 characters.
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        let text = JSONWriter.compact(value)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }
}
