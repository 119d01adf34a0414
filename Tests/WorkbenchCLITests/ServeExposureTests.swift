import ReferenceBackend
import Testing

@testable import WorkbenchCLI

/// `serve --host` with an address that is not a loopback one warns, naming what it exposes;
/// `--body-timeout`, `--remote-admin` and `--record-limit` are read and range-checked.
@Suite struct ServeExposureTests {
    @Test func loopbackHostsDoNotWarn() {
        for host in ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"] {
            #expect(ExposureWarning.backend(host: host, remoteAdmin: false) == nil, "\(host)")
        }
    }

    @Test func otherHostsWarnNamingWhatIsExposed() throws {
        for host in ["0.0.0.0", "::", "192.168.1.20", "127.0.0.256", "example.com"] {
            let warning = try #require(
                ExposureWarning.backend(host: host, remoteAdmin: false), "\(host)")
            #expect(warning.contains("--host \(host) is not a loopback address"))
            #expect(warning.contains("register, authenticate and request activation codes"))
            #expect(warning.contains("/admin/* and /devicesecurity/admin/* still answer only this machine"))
        }
        let open = try #require(ExposureWarning.backend(host: "0.0.0.0", remoteAdmin: true))
        #expect(
            open.contains(
                "with --remote-admin, the operator endpoints /admin/* (mailbox with activation links and codes, revoke, restore"
            ))
        let served = try #require(
            ExposureWarning.cassette(host: "0.0.0.0", cassette: "flow.json"))
        #expect(served.contains("the recorded answers of flow.json"))
    }

    @Test func theFlagsAreReadAndChecked() throws {
        #expect(try ServeCommand.parse([]).bodyTimeout == BodyDeadline.defaultSeconds)
        #expect(try ServeCommand.parse(["--body-timeout", "2.5"]).bodyTimeout == 2.5)
        #expect(try ServeCommand.parse(["--remote-admin"]).remoteAdmin)
        #expect(try ServeCommand.parse([]).recordLimit == 10_000)
        #expect(try ServeCommand.parse(["--record-limit", "5"]).recordLimit == 5)
        #expect(try ServeCommand.parse([]).clientRecordLimit == 1_000)
        #expect(try ServeCommand.parse(["--client-record-limit", "7"]).clientRecordLimit == 7)
        for bad in [
            ["--body-timeout", "0"], ["--body-timeout", "3601"], ["--body-timeout", "x"], ["--record-limit", "0"],
            ["--record-limit", "10000001"],
            ["--client-record-limit", "0"],
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try ServeCommand.parse(bad) }
        }
        // The backend's own options are not the served cassette's, in either spelling.
        for bad in [
            ["cassette", "serve", "c.json", "--remote-admin"],
            ["serve", "--cassette", "c.json", "--record-limit", "5"],
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try WorkbenchCommand.parse(commandLine: bad) }
        }
        #expect(try CassetteServeCommand.parse(["c.json", "--body-timeout", "1"]).bodyTimeoutSeconds == 1)
    }
}
