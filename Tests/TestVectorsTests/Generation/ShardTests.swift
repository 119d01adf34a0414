import Testing

@testable import TestVectors

/// `Shard`: `K/N` text, numbered from 1, and the contiguous ranges it splits positions into.
@Suite("shards K/N")
struct ShardTests {
    @Test(
        "K/N is read with K from 1 to N and N from 1 to 1000",
        arguments: [
            ("1/1", 1, 1), ("2/3", 2, 3), ("3/3", 3, 3), ("1000/1000", 1000, 1000), ("07/10", 7, 10),
        ])
    func reads(text: String, index: Int, count: Int) throws {
        let shard = try Shard.parse(text).get()
        #expect(shard.index == index && shard.count == count)
        #expect(shard.description == "\(index)/\(count)")
    }

    @Test(
        "malformed or out-of-range K/N is refused with what is wrong",
        arguments: [
            ("", "two integers"), ("3", "two integers"), ("1/2/3", "two integers"), ("a/3", "two integers"),
            ("1/", "two integers"), ("/3", "two integers"), (" 1/3", "two integers"), ("1 /3", "two integers"),
            ("-1/3", "two integers"), ("+1/3", "two integers"), ("1.0/3", "two integers"),
            ("0/3", "numbered from 1"), ("0/3", "JOB_COMPLETION_INDEX + 1"), ("4/3", "from 1 to N (3), not 4"),
            ("1/0", "from 1 to 1000, not 0"), ("1/1001", "from 1 to 1000, not 1001"),
            ("1/99999999999999999999999", "beyond"),
        ])
    func refuses(text: String, message: String) {
        switch Shard.parse(text) {
        case .success(let shard): Issue.record("\"\(text)\" was read as \(shard)")
        case .failure(let error): #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("the N ranges cover every position once, in order, differing in size by at most one")
    func partition() {
        for total in [0, 1, 2, 5, 10, 141, 1000] {
            for count in [1, 2, 3, 7, 10, 1000] {
                let ranges = (1...count).map { Shard(index: $0, count: count)!.range(of: total) }
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == total)
                for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
                let sizes = ranges.map(\.count)
                #expect(sizes.max()! - sizes.min()! <= 1, "total \(total), N \(count): \(sizes)")
            }
        }
        #expect(Shard(index: 2, count: 3)!.range(of: 10) == 3..<6)
        #expect(Shard(index: 5, count: 10)!.range(of: 3) == 1..<1)
        #expect(Shard(index: 2, count: 3)!.select(Array("abcdefghij")) == ["d", "e", "f"])
    }

    @Test("K outside 1…N and N outside 1…1000 make no shard")
    func initRefuses() {
        #expect(Shard(index: 0, count: 3) == nil)
        #expect(Shard(index: 4, count: 3) == nil)
        #expect(Shard(index: 1, count: 0) == nil)
        #expect(Shard(index: 1, count: 1001) == nil)
        #expect(Shard(index: 1, count: 1) == Shard.whole)
    }
}
