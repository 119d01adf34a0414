import ArgumentParser
import ReferenceBackend
import Scenarios

/// `--flavour` and `--profile` of `run` and `record`: the script's backend flavour and, for the
/// embedded backend, whose answers it gives, each overriding the script's own value.
struct ScenarioBackendOption: ParsableArguments {
    @Option(help: "Override the script's flavour: milagro or mfa-platform.")
    var flavour: BackendFlavour?

    @Option(
        help:
            "With the embedded backend: whose answers it gives instead of the script's profile, default (the workbench's), milagro-oss (the open-source Milagro server's) or milagro-hosted-v3 (the backend of the C++ SDK core's recorded unit tests)."
    )
    var profile: BackendProfile?

    /// A `--backend URL` answers as it does: `--profile` cannot go with it.
    func check(backend: String?) throws {
        if backend != nil && profile != nil {
            throw ValidationError("--profile sets up the embedded backend; a --backend URL answers as it does.")
        }
    }

    /// `script` with the values given put in place of its own.
    func apply(to script: ScenarioScript) -> ScenarioScript {
        var script = script
        if let flavour { script.flavour = flavour }
        if let profile { script.profile = profile }
        return script
    }
}
