import ArgumentParser
import FlowRecording

/// `mpin-workbench cassette lint FILE...`: schema, format version, canonical form.
struct CassetteLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check cassettes: schema, format version, canonical formatting, body views, placeholders.",
        discussion: """
            Prints one line per problem (`FILE: where: what`) and `FILE: ok` for clean files.

            One way to edit a cassette: a body's `text` (or `base64`) holds the bytes that are \
            replayed, and its `json` is only a readable view of them. Edit `text`, then run `lint \
            --fix`: it rewrites the file in canonical form and writes every `json` view again from \
            its `text` (an edit made to `json` alone is undone). A file that is otherwise readable is \
            rewritten in place. Exit \
            status 1 when any problem remains. With --portable, also what a C consumer reading \
            the file or a JSON body with jansson would read differently (integers beyond 64 bits, \
            reals beyond a double, NUL in strings, repeated member names, a byte order mark, a \
            scalar at the top), each with its line, column and JSON path.

            Exit status: 0 when every file is clean, 1 when a file has problems (not JSON, a schema \
            error or a newer format are what lint reports), 2 when a file cannot be read (missing, \
            a directory, not permitted; the message on standard error names it) or the usage was wrong.

            Examples:
              mpin-workbench cassette lint Recordings/*.json
              mpin-workbench cassette lint flow.json --fix
            """
    )

    @Argument(help: "Cassette files.")
    var files: [String]

    @Flag(help: "Rewrite readable files in canonical form, each body's `json` view written again from its `text`.")
    var fix = false

    @Flag(help: "Also report what a C consumer on jansson would read differently.")
    var portable = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one cassette file.") }
    }

    func run() throws {
        var failed = false
        var unreadable = false
        for path in files {
            let bytes: [UInt8]
            do {
                bytes = try CassetteFile.readBytes(path)
            } catch {
                Console.failure(error.description)
                unreadable = true
                continue
            }
            var problems = CassetteLint.check(bytes: bytes, path: path)
            if fix, !problems.isEmpty, let cassette = try? CassetteLint.readRebuildingViews(path) {
                try CassetteOutput.write(cassette, to: path)
                problems = CassetteLint.check(path: path)
                if problems.isEmpty {
                    Console.line(
                        "\(path): rewritten in canonical form, each body's `json` view written again from its `text`")
                }
            }
            if portable { problems += CassetteLint.checkPortable(path: path) }
            if problems.isEmpty {
                Console.line("\(path): ok")
            } else {
                failed = true
                for problem in problems { Console.line(problem.description) }
            }
        }
        if unreadable { throw ExitCode.cannotRun }
        if failed { throw ExitCode.failure }
    }
}
