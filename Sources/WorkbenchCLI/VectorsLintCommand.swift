import ArgumentParser
import Foundation
import TestVectors

/// `mpin-workbench vectors lint FILE...`: schema, tcIds, numberOfTests and canonical formatting.
struct VectorsLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check the workbench's vector files: schema, unique tcIds in order, numberOfTests, canonical form.",
        discussion: """
            Prints `FILE:LINE: PATH (tcId N): problem` for each problem and `FILE: ok` for a clean \
            file. Exit status: 0 when every file is clean, 1 when one has problems, 2 when a file \
            cannot be read.
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
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                Console.error("error: \(file): cannot be read as UTF-8 text\n")
                unreadable += 1
                continue
            }
            let found = VectorLinter.lint(text: text, file: file)
            if found.isEmpty {
                print("\(file): ok")
            } else {
                for problem in found { print(problem.description) }
                problems += found.count
            }
        }
        if unreadable > 0 { throw ExitCode(2) }
        if problems > 0 { throw ExitCode(1) }
    }
}
