// AMCL's vector files, text (`KEY = value` blocks) and JSON (a list of objects): reading,
// telling the format and curve, and checking every vector (`vectors verify`), which either gives
// verdicts or a `VectorFileError` naming the file.
import Foundation
import FuzzSupport

@testable import TestVectors

let file = Repository.scratch + "/vectors.txt"

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard FileManager.default.createFile(atPath: file, contents: Data(input.bytes)) else {
        FuzzDriver.fail("cannot write \(file)")
    }
    let verifier = VectorVerifier(curve: nil)
    let loaded: VectorVerifier.LoadedFile
    do throws(VectorFileError) {
        loaded = try verifier.load(path: file)
    } catch {
        _ = error.description
        return 0
    }
    _ = verifier.check(loaded)
    _ = verifier.unusedKeys(loaded)
    return 0
}

FuzzDriver.run()
