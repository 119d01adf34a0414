import ArgumentParser

/// `mpin-workbench vectors`: known-answer vectors.
struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Generate and check known-answer vectors for the pairing crypto and the M-Pin primitives.",
        discussion: """
            `generate` writes a suite of Wycheproof-shaped vectors, deterministically from a seed; \
            `verify` checks them (and AMCL's files) field by field; `lint` checks their form; \
            `merge` joins shards; `bench` times the generation.

            Examples:
              mpin-workbench vectors generate --suite mpin-two-pass --seed s1 \\
                  --out two-pass.json
              mpin-workbench vectors verify two-pass.json
            """,
        subcommands: [
            VectorsVerifyCommand.self, VectorsGenerateCommand.self, VectorsLintCommand.self,
            VectorsMergeCommand.self, VectorsBenchCommand.self,
        ]
    )
}
