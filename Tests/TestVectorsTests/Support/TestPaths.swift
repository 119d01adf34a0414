import Foundation
import TestSupport

/// Where the tests find their files: fixtures (a resource of this target) and the repository's Vectors/.
enum TestPaths {
    /// `Tests/TestVectorsTests/Fixtures/<name>` as copied into the test bundle.
    static func fixture(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures resource is missing from the test bundle")
        }
        return url.appendingPathComponent(name).path
    }

    /// Every `.txt` and `.json` file under `Vectors/amcl/<folder>`, sorted.
    static func vectorFiles(in folder: String) -> [String] {
        let base = URL(fileURLWithPath: RepoPaths.path("Vectors/amcl/\(folder)"))
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".json") }
            .map { base.appendingPathComponent($0).path }
            .sorted()
    }
}
