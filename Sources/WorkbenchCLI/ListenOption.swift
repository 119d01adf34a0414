import ArgumentParser

/// `--host` and `--port` of the commands that listen (`serve`, `cassette serve`, `proxy`): the one
/// home of the default address and of the port range, checked once, by the option's transform.
struct ListenOption: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = ListenOption.defaultHost

    @Option(
        parsing: .unconditional, help: "Port to listen on, 0 to 65535 (0 picks a free one).",
        transform: BoundedNumber.integer(ListenOption.portRange))
    var port = 0

    /// Loopback: nothing is reachable from another machine unless `--host` says so.
    static let defaultHost = "127.0.0.1"

    /// The ports `--port` takes; 0 asks the system for a free one.
    static let portRange = 0...65_535

    /// The failure of a server that did not start (exit status 2), with what to do when its port
    /// is taken (EADDRINUSE: another program listens there).
    static func startFailure(_ error: any Error) -> CommandFailure {
        let text = "\(error)"
        guard text.contains("Address already in use") else { return CommandFailure(text) }
        return CommandFailure(
            text
                + "; another program listens on that port: stop it, choose another --port, or give --port 0 for a free one"
        )
    }
}
