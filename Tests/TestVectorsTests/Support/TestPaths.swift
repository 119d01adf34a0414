import Foundation
import TestSupport

/// Where the tests find their fixtures (a resource of this target). AMCL's published vector files are
/// read from ../shared/vectors (`SharedData`), the workbench's generated ones from Vectors/generated.
enum TestPaths {
    /// `Tests/TestVectorsTests/Fixtures/<name>` as copied into the test bundle.
    static func fixture(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the Fixtures resource is missing from the test bundle")
        }
        return url.appendingPathComponent(name).path
    }
}
