import ArgumentParser
import TestVectors

/// `--shard K/N` of `replay`, `vectors generate` and `vectors verify`: do the K-th of N
/// deterministic parts (`Shard`: numbered from 1, contiguous ranges of a fixed order), so that a CI
/// matrix or a Kubernetes indexed Job shares the work out. `K/N` text that is not two integers, N
/// outside 1…1000 or K outside 1…N is a usage error naming `--shard` (exit status 2).
struct ShardOption: ParsableArguments {
    @Option(
        name: .customLong("shard"), parsing: .unconditional,
        help: ArgumentHelp(
            "Do only the K-th of N deterministic parts (K from 1 to N, N at most \(Shard.countRange.upperBound)); "
                + "for a 0-based index give $((INDEX + 1))/N.",
            valueName: "K/N"),
        transform: ShardOption.parse)
    var shard: Shard?

    /// `Shard.parse` as the option's transform: ArgumentParser puts the value and `--shard` before the message.
    @Sendable static func parse(_ text: String) throws -> Shard {
        switch Shard.parse(text) {
        case .success(let shard): return shard
        case .failure(let error): throw BoundedNumber.Refusal(description: error.message)
        }
    }

    /// The paths this shard takes: with `--shard`, its contiguous run of the paths sorted by their
    /// UTF-8 bytes (the same on every machine and locale, whatever order they were given in);
    /// without, every path as given.
    func part(of paths: [String]) -> [String] {
        guard let shard else { return paths }
        return Array(shard.select(paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }))
    }

    /// The JUnit `<testsuite>` name of `command`: `replay (shard 2/5)` with a shard, else `command`.
    func suiteName(_ command: String) -> String {
        shard.map { "\(command) (shard \($0))" } ?? command
    }
}
