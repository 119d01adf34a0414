import ArgumentParser
import FlowRecording
import Foundation

/// `mpin-workbench cassette import --format milagro-sdk FILE --out DIR`.
struct CassetteImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn recordings of another harness into cassettes, one per test.",
        discussion: """
            --format milagro-sdk reads the JSON file of the Milagro C++ SDK core's test harness (a list \
            of request/response pairs whose context ends in @<testName>) and writes DIR/<testName>.json \
            for each test. The cassettes replay in mode method-url (the harness kept no request headers \
            and its bodies hold fresh randomness); the browser side of access-number flows gets the \
            browser actor. Each cassette's scenario is named after its test.
            """
    )

    @Option(help: "The format of FILE (milagro-sdk).")
    var format: String

    @Argument(help: "The recorded file.")
    var file: String

    @Option(help: "The directory for the cassettes (created if missing).")
    var out: String

    func validate() throws {
        if format != LegacyImporter.formatName {
            throw ValidationError("Unknown format \"\(format)\"; supported: \(LegacyImporter.formatName).")
        }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try CassetteFile.readBytes(file)
        } catch {
            CassetteOutput.error(error.description)
            throw ExitCode(2)
        }
        let importer = LegacyImporter(tool: .init(name: "mpin-workbench", version: WorkbenchVersion.current))
        let imported: [LegacyImporter.Imported]
        do {
            imported = try importer.importFile(bytes, path: file)
        } catch {
            CassetteOutput.error(error.description)
            throw ExitCode(2)
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            CassetteOutput.error("\(out): cannot create the directory: \(error.localizedDescription)")
            throw ExitCode(2)
        }
        for item in imported {
            let path = (out as NSString).appendingPathComponent(item.fileName)
            try CassetteOutput.write(item.cassette.canonicalBytes, to: path)
            let count = item.cassette.events.count
            print("\(path): \(item.test), \(count) exchange\(count == 1 ? "" : "s")")
        }
        print("\(imported.count) cassettes from \(file)")
    }
}
