/// One of N deterministic parts of a piece of work: `--shard K/N` of `replay`, `vectors generate`
/// and `vectors verify`, so that a CI matrix or a Kubernetes indexed Job can share it out.
///
/// Shards are numbered from 1, as `K/N` reads: `1/3`, `2/3`, `3/3`. A 0-based index, such as
/// Kubernetes' `JOB_COMPLETION_INDEX`, is given as `$((JOB_COMPLETION_INDEX + 1))/N`.
///
/// `total` items (positions `0..<total` of a list in a fixed order: sorted paths, tcIds) are split
/// into N contiguous ranges whose sizes differ by at most one; shard K gets
/// `⌊(K−1)·total/N⌋ ..< ⌊K·total/N⌋`. The ranges depend only on K, N and `total`, cover every
/// position once, and are empty for some shards when N exceeds `total`.
///
/// ```swift
/// let shard = try Shard.parse("2/3").get()
/// shard.range(of: 10)   // 3..<6
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// K, from 1 to `count`.
    public let index: Int
    /// N, within `countRange`.
    public let count: Int

    /// The N taken: enough for any CI matrix (GitHub allows 256 jobs) or indexed Job of ours.
    public static let countRange = 1...1_000

    /// The shard K of N; nil when N is outside `countRange` or K outside `1...N`.
    public init?(index: Int, count: Int) {
        guard Self.countRange.contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The whole work as one shard, `1/1`.
    public static let whole = Shard(index: 1, count: 1)!

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// The positions of `0..<total` this shard does.
    ///
    /// - Precondition: `0 <= total <= Int.max / countRange.upperBound`.
    public func range(of total: Int) -> Range<Int> {
        precondition(
            total >= 0 && total <= Int.max / Self.countRange.upperBound, "Shard.range: total \(total) out of range")
        return (index - 1) * total / count..<index * total / count
    }

    /// The items of this shard, from `items` in the order given.
    public func select<Item>(_ items: [Item]) -> ArraySlice<Item> { items[range(of: items.count)] }

    /// Reads `K/N` (decimal integers, no spaces); the error says what is wrong in the words of the
    /// option (`--shard`'s help and usage error).
    public static func parse(_ text: String) -> Result<Shard, ParseError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let number = { (part: Substring) -> Int? in
            part.allSatisfy { $0.isASCII && $0.isNumber } && !part.isEmpty ? Int(part) : nil
        }
        guard parts.count == 2, let index = number(parts[0]), let count = number(parts[1]) else {
            let tooLong =
                parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            return .failure(
                ParseError(
                    message: tooLong
                        ? "K/N with N from \(countRange.lowerBound) to \(countRange.upperBound): \(text) is beyond that"
                        : "must be K/N, two integers such as 2/5 (the second of five shards), not \"\(text)\""))
        }
        guard countRange.contains(count) else {
            return .failure(
                ParseError(
                    message:
                        "the number of shards N must be from \(countRange.lowerBound) to \(countRange.upperBound), not \(count)"
                ))
        }
        guard index >= 1 else {
            return .failure(
                ParseError(
                    message: "shards are numbered from 1 to N (\(count)), not \(index): for a 0-based "
                        + "index such as JOB_COMPLETION_INDEX give $((JOB_COMPLETION_INDEX + 1))/\(count)"))
        }
        guard index <= count else {
            return .failure(ParseError(message: "the shard K must be from 1 to N (\(count)), not \(index)"))
        }
        return .success(Shard(index: index, count: count)!)
    }

    /// Why `K/N` text was refused.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
