import ArgumentParser
import FlowRecording
import Foundation

/// `mpin-workbench cassette …`: tools for cassette files.
struct CassetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cassette",
        abstract: "Show, compare, check, redact, audit, draw, import and serve cassettes.",
        discussion: """
            A cassette is the JSON file of one recorded flow (format version \(Cassette.currentFormatVersion)): \
            every API call with its result, every HTTP exchange with exact bytes, every crypto \
            intermediate, random draw and clock reading, in order.

            Exit status: 0 on success, 1 when `diff` finds differences, `lint` finds problems or `check` \
            finds a failure, `audit` finds a secret given away, 2 when \
            a file cannot be read (missing, not JSON, a newer format, a schema error; the message says which; \
            for `lint` only a file it cannot open, the rest being its findings) or the usage was wrong; \
            `serve` gives 1 when a request matched nothing or a recorded exchange was never asked for.

            Examples:
              mpin-workbench cassette show Recordings/authenticate.json
              mpin-workbench cassette serve Recordings/authenticate.json --port 8005
            """,
        subcommands: [
            CassetteShowCommand.self, CassetteDiffCommand.self, CassetteLintCommand.self, CassetteCheckCommand.self,
            CassetteRedactCommand.self, CassetteAuditCommand.self, CassetteDiagramCommand.self,
            CassetteImportCommand.self,
            CassetteServeCommand.self,
        ]
    )
}

/// The cassette subcommands' reading and writing, each failure a `CommandFailure`.
enum CassetteOutput {
    /// Reads a cassette, or throws a `CommandFailure` saying why.
    static func read(_ path: String) throws -> Cassette {
        do {
            return try CassetteFile.read(path)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Writes a cassette's canonical bytes atomically, event by event (`CassetteFile.write`), or
    /// throws a `CommandFailure` saying why.
    static func write(_ cassette: Cassette, to path: String) throws {
        do {
            try CassetteFile.write(cassette, to: path)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Writes bytes atomically, or throws a `CommandFailure` saying why.
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try CassetteFile.writeAtomically(bytes, to: path)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
