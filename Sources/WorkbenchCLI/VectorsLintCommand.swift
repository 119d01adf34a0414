import ArgumentParser
import Foundation
import TestVectors

/// `mpin-workbench vectors lint FILE...`: schema, tcIds, numberOfTests and canonical formatting.
struct VectorsLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check the workbench's vector files: schema, parameter and field ranges, header, tcIds, canonical form.",
        discussion: """
            Checks the schema, every group parameter and numeric field against the suite's ranges \
            (maxPIN, pinBits, DATE, PIN1, ...), the header's command against the file (read as a \
            shell reads it: its --suite, --curve, --count and --seed must be the file's, so it \
            regenerates the file when run as written), \
            unique tcIds in order, numberOfTests, at least one test, and the canonical form. Prints \
            `FILE:LINE: PATH (tcId N): problem` for each problem and `FILE: ok` for a clean file. Exit status: 0 when every file is clean, 1 when one has problems, 2 when a file \
            cannot be read.

            Examples:
              mpin-workbench vectors lint Vectors/generated/*.json
            """
    )

    @Argument(help: "Vector files written by `vectors generate`.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one vector file.") }
    }

    func run() throws {
        var problems = 0
        var unreadable = 0
        for file in files {
            let text: String
            do {
                text = try VectorFileContents.read(file)
            } catch {
                Console.error("error: \(error)\n")
                unreadable += 1
                continue
            }
            let found = VectorLinter.lint(text: text, file: file)
            if found.isEmpty {
                Console.line("\(file): ok")
            } else {
                for problem in found { Console.line(problem.description) }
                problems += found.count
            }
        }
        if unreadable > 0 { throw ExitCode.cannotRun }
        if problems > 0 { throw ExitCode.failure }
    }
}
