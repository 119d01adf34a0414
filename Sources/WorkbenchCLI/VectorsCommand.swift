import ArgumentParser

/// `mpin-workbench vectors`: known-answer vectors.
struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Generate and check known-answer vectors for the pairing crypto and the M-Pin primitives.",
        subcommands: [VectorsVerifyCommand.self, VectorsGenerateCommand.self, VectorsLintCommand.self,
                      VectorsMergeCommand.self, VectorsBenchCommand.self]
    )
}
