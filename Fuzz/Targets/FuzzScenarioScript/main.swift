// Scenario scripts, YAML or JSON: the parser either gives a script or a `ScriptError` naming the
// file; a script that parses can also be read as a suite description (`cassette import`'s
// `LegacySuite`), which either works or says why not.
import FuzzSupport
import LegacyImport

@testable import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = FuzzInput(data, size).text else { return 0 }
    let script: ScenarioScript
    do throws(ScriptError) {
        script = try ScriptParser.parse(text, file: "fuzz.yaml")
    } catch {
        _ = error.description
        return 0
    }
    _ = try? ScenarioLibrary.suite(from: script)
    return 0
}

FuzzDriver.run()
