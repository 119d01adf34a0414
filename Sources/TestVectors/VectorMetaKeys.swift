/// The meta keys of a test object; every other key is a data field.
enum VectorMetaKeys {
    static let test: Set<String> = ["tcId", "comment", "flags", "result", "expectedError"]
    static let group: Set<String> = ["type", "source", "tests"]
    static let root: Set<String> = [
        "algorithm", "schema", "formatVersion", "generatorVersion", "numberOfTests", "header", "notes", "testGroups",
        "suite", "curve", "seed",
    ]
    static let schema = "mpin-workbench-vectors-v1"
    static let formatVersion = 1
}
