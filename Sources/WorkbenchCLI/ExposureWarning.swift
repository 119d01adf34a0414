import CommonFormats
import FlowRecording

/// The warnings of a server command whose `--host` is not a loopback address (`Loopback`): what
/// clients on other machines reach. `serve`, `cassette serve` and `proxy` print them before they listen.
enum ExposureWarning {
    /// `serve`: the test backend, whose secrets follow `--seed`, and (with `--remote-admin`) its
    /// operator endpoints. Nil on a loopback host.
    static func backend(host: String, remoteAdmin: Bool) -> String? {
        guard !Loopback.isLoopback(host: host) else { return nil }
        let admin =
            remoteAdmin
            ? "and, with --remote-admin, the operator endpoints /admin/* (mailbox with activation links and codes, revoke, "
                + "restore, counts) and /devicesecurity/admin/*"
            : "(the operator endpoints /admin/* and /devicesecurity/admin/* still answer only this machine)"
        return
            "warning: --host \(host) is not a loopback address: every client that reaches it can register, authenticate and "
            + "request activation codes on this test backend, whose secrets follow --seed, \(admin)."
    }

    /// `cassette serve`: the recorded answers (with any token or secret they hold) and the playback
    /// endpoints. Nil on a loopback host.
    static func cassette(host: String, cassette: String) -> String? {
        guard !Loopback.isLoopback(host: host) else { return nil }
        return
            "warning: --host \(host) is not a loopback address: every client that reaches it gets the recorded answers of "
            + "\(cassette) (with any token or secret they hold) and the playback endpoints \(CassettePlayback.statusPath) and "
            + "\(CassettePlayback.resetPath)."
    }

    /// `proxy`: the upstream, through the proxy and into the cassette, and (with `--allow-admin`)
    /// the operator endpoints of a backend on this machine. Nil on a loopback host.
    static func proxy(host: String, upstream: String, out: String, allowAdmin: Bool) -> String? {
        guard !Loopback.isLoopback(host: host) else { return nil }
        let admin =
            allowAdmin
            ? "and, with --allow-admin, the operator endpoints /admin/* (mailbox with activation links and codes, revoke, "
                + "restore, counts) and /devicesecurity/admin/* of a backend on this machine"
            : "(the operator endpoints /admin/* and /devicesecurity/admin/* still answer only this machine: the proxy's Via "
                + "field tells the backend)"
        return
            "warning: --host \(host) is not a loopback address: every client that reaches it is forwarded to \(upstream), can "
            + "register, authenticate and request activation codes there, and is recorded into \(out), \(admin)."
    }
}
