import OrderedJSON

/// The `shard` member of a file `vectors generate --shard K/N` writes: which part of which whole it
/// holds, so that `vectors merge` can check that its inputs are a complete, non-overlapping set
/// and `vectors lint`/`verify` can check the file on its own.
///
/// ```json
/// "shard": { "count": 3, "firstTcId": 41, "index": 2, "totalTests": 120 }
/// ```
///
/// `index`/`count` are K/N (`Shard`, numbered from 1); the file holds the tests with tcIds
/// `firstTcId ..< firstTcId + numberOfTests` of the `totalTests` one unsharded run writes, the
/// range `Shard.range(of: totalTests)` gives. Every other member of the file (the header with the
/// unsharded command, the seed, the notes, every group's parameters) is the unsharded file's.
public struct VectorShardInfo: Sendable, Hashable {
    /// The root member's name.
    public static let member = "shard"

    public var shard: Shard
    /// The tests of the whole generation.
    public var totalTests: Int

    public init(shard: Shard, totalTests: Int) {
        self.shard = shard
        self.totalTests = totalTests
    }

    /// The positions (tcId − 1) of the whole generation this shard holds.
    public var range: Range<Int> { shard.range(of: totalTests) }

    /// The tcId of the shard's first test (of the next one, when the shard is empty).
    public var firstTcId: Int { range.lowerBound + 1 }

    /// The most tests a whole generation can hold (and `totalTests` may say).
    static let totalRange = 0...10_000_000

    var json: JSONValue {
        .sortedObject([
            "index": .integer(shard.index), "count": .integer(shard.count),
            "firstTcId": .integer(firstTcId), "totalTests": .integer(totalTests),
        ])
    }

    /// Reads the member; the error says which field is wrong and why.
    public static func read(_ value: JSONValue) -> Result<VectorShardInfo, ReadError> {
        guard let members = value.objectMembers else {
            return .failure(ReadError(field: "shard", message: "must be an object"))
        }
        let known: Set<String> = ["index", "count", "firstTcId", "totalTests"]
        if let unknown = members.first(where: { !known.contains($0.name) }) {
            return .failure(ReadError(field: "shard.\(unknown.name)", message: "unknown member"))
        }
        var numbers: [String: Int] = [:]
        for name in ["count", "index", "totalTests", "firstTcId"] {
            guard let number = value[name]?.intValue else {
                return .failure(
                    ReadError(field: "shard.\(name)", message: value[name] == nil ? "missing" : "must be an integer"))
            }
            numbers[name] = number
        }
        let count = numbers["count"]!, index = numbers["index"]!, total = numbers["totalTests"]!
        guard Shard.countRange.contains(count) else {
            return .failure(
                ReadError(
                    field: "shard.count",
                    message:
                        "must be from \(Shard.countRange.lowerBound) to \(Shard.countRange.upperBound), not \(count)"))
        }
        guard let shard = Shard(index: index, count: count) else {
            return .failure(
                ReadError(field: "shard.index", message: "must be from 1 to count (\(count)), not \(index)"))
        }
        guard totalRange.contains(total) else {
            return .failure(
                ReadError(
                    field: "shard.totalTests",
                    message: "must be from \(totalRange.lowerBound) to \(totalRange.upperBound), not \(total)"))
        }
        let info = VectorShardInfo(shard: shard, totalTests: total)
        guard numbers["firstTcId"] == info.firstTcId else {
            return .failure(
                ReadError(
                    field: "shard.firstTcId",
                    message:
                        "shard \(shard) of \(total) tests starts at tcId \(info.firstTcId), not \(numbers["firstTcId"]!)"
                ))
        }
        return .success(info)
    }

    /// Why a `shard` member was refused: the field (`shard.index`) and what is wrong with it.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public var field: String
        public var message: String
        public var description: String { "\(field): \(message)" }
    }
}
