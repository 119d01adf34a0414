// The workbench's own vector files (one JSON object per suite): `vectors verify`, with the GMP
// cross-check, and `vectors lint`, which either give a report or a `VectorFileError`.
import FuzzSupport

@testable import TestVectors

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = FuzzInput(data, size).text else { return 0 }
    _ = VectorLinter.lint(text: text, file: "fuzz.json")
    do throws(VectorFileError) {
        _ = try SuiteFileVerifier.verify(text: text, file: "fuzz.json", crossCheck: true)
    } catch {
        _ = error.description
    }
    return 0
}

FuzzDriver.run()
