import TestSupport

/// The small vector files of `Tests/TestVectorsTests/Fixtures` (the readers' tests use them too),
/// read from the source tree, as the executable sees them.
enum VectorFixtures {
    /// `Tests/TestVectorsTests/Fixtures/<name>`.
    static func path(_ name: String) -> String { RepoPaths.path("Tests/TestVectorsTests/Fixtures/\(name)") }
}
