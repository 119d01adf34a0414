import FuzzSupport

// `cassette import --format milagro-sdk`: the upstream harness's recorded-data file, read on its
// own and as one run of the bundled suite (Scenarios/milagro-sdk/suites/unit-tests.yaml). Any
// bytes give cassettes or an `ImportError` naming the file; every cassette the importer makes is
// one the reader takes back unchanged.
@testable import FlowRecording
@testable import LegacyImport
@testable import Scenarios

let suite: LegacySuite = {
    let path = Repository.path("Scenarios/milagro-sdk/suites/unit-tests.yaml")
    do {
        return try ScenarioLibrary.suite(from: ScriptParser.parse(file: path))
    } catch {
        FuzzDriver.fail("cannot read the suite description \(path): \(error)")
    }
}()

let importers = [
    LegacyImporter(tool: Cassette.Tool(name: "mpin-workbench", version: "fuzz")),
    LegacyImporter(tool: Cassette.Tool(name: "mpin-workbench", version: "fuzz"), suite: suite),
]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    for importer in importers {
        let outcome: LegacyImporter.Outcome
        do throws(LegacyImporter.ImportError) {
            outcome = try importer.run(bytes, path: "fuzz.json")
        } catch {
            _ = error.description
            continue
        }
        for imported in outcome.cassettes {
            let canonical = imported.cassette.canonicalBytes
            do throws(CassetteError) {
                let read = try CassetteFile.decode(canonical)
                FuzzDriver.check(read == imported.cassette, "the cassette of \(imported.test) reads back as another")
            } catch {
                FuzzDriver.fail("the cassette imported for \(imported.test) does not read back: \(error)")
            }
        }
    }
    return 0
}

FuzzDriver.run()
