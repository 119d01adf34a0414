import ArgumentParser
import FlowRecording

/// "Did you mean" for a mistyped subcommand (`recrod`, `cassette shwo`), which the parser would
/// report only as unexpected arguments: the arguments are walked down the command tree, and the
/// first that is not a subcommand where one is expected, but is near one (`NameSuggestion`), is
/// named with the subcommand it is near. Anything else is left to the parser.
enum SubcommandSuggestion {
    /// The message for `arguments` (without the program's name), nil when they name no near miss.
    static func message(for arguments: [String]) -> String? {
        var subcommands: [any ParsableCommand.Type] = WorkbenchCommand.configuration.subcommands
        var path = ["mpin-workbench"]
        for argument in arguments {
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            var names: [String] = []
            var next: [any ParsableCommand.Type]?
            for subcommand in subcommands {
                let configuration = subcommand.configuration
                let name = configuration.commandName ?? ""
                names.append(name)
                if name == argument || configuration.aliases.contains(argument) {
                    next = configuration.subcommands
                }
            }
            if let next {
                subcommands = next
                path.append(argument)
                continue
            }
            guard let near = NameSuggestion.closest(to: argument, among: names) else { return nil }
            let all = path.joined(separator: " ")
            return "'\(argument)' is not a subcommand of \(all); did you mean '\(near)'? (`\(all) --help` lists them)"
        }
        return nil
    }
}
