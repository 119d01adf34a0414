import ArgumentParser
import FileAccess
import Foundation
import TestVectors

/// `mpin-workbench vectors merge SHARD... --out FILE`: joins the files of `vectors generate --shard`
/// into the file one unsharded run writes (`VectorShardMerger`).
struct VectorsMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shard files of `vectors generate --shard K/N` into the file one unsharded run writes.",
        discussion: """
            The files may be given in any order. They must be shards 1 to N of one split, each once, \
            of the same generation (suite, curve, seed, count, version: every member but `shard` and \
            `numberOfTests`, and every group's parameters), each holding the tests of its range; \
            otherwise nothing is written and the error names the file (a missing shard, a shard \
            given twice, a member that differs). The result is byte for byte what `vectors generate` \
            without --shard writes for the same arguments. Shards are read a line at a time and the \
            result is written as it is made, to a temporary file renamed into place at the end, so \
            memory does not grow with the number of tests. Exit status: 0 when merged, 2 when not.

            Examples:
              mpin-workbench vectors merge part1.json part2.json part3.json part4.json --out two-pass.json
            """
    )

    @Argument(help: "The shard files (any order).")
    var shards: [String]

    @Option(help: "The file to write.")
    var out: String

    func validate() throws {
        if shards.isEmpty { throw ValidationError("Name the shard files to merge.") }
    }

    func run() throws {
        let summary: VectorShardMerger.Summary
        do {
            try Directories.create((out as NSString).deletingLastPathComponent)
            summary = try VectorShardMerger.merge(shards, to: out)
        } catch {
            throw CommandFailure("\(error)")
        }
        Console.line(
            "\(out): \(summary.tests) tests (\(summary.suite)) from \(summary.shards) shard\(summary.shards == 1 ? "" : "s")"
        )
    }
}
