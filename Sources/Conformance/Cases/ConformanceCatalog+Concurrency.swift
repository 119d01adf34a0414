import MPinSDK

/// A short, bounded concurrency case (issue 28: the open-source server loses pass-1 records under
/// repeated logins): two users log in five times each, two logins at a time.
extension ConformanceCatalog {
    static var concurrency: [ConformanceCase] {
        [
            ConformanceCase(
                "concurrency.repeated-logins", .concurrency, .must,
                title: "Repeated logins, two at a time, all succeed",
                source: "docs/protocol.md §14; issue 28 (1-3% of pass 2s failed with 500 \"Invalid pass one data\")",
                sends: "two users, each logging in five times in a row, the two in parallel (10 logins)",
                expects: "10 of 10 logins OK", requestLimit: 80
            ) { context async throws(ConformanceError) in
                let a = try await context.registeredUser()
                let b = try await context.registeredUser()
                let (first, second) = try await context.inParallel(
                    { () async throws(ConformanceError) in try await lane(context, a) },
                    { () async throws(ConformanceError) in try await lane(context, b) })
                let outcomes = first + second
                let failed = outcomes.filter { !$0.isOK }
                return failed.isEmpty
                    ? .pass("10 of 10 logins")
                    : .fail(
                        "\(10 - failed.count) of 10 logins; failures: \(failed.map(\.description).joined(separator: ", "))"
                    )
            },
            ConformanceCase(
                "concurrency.same-user-overlap", .concurrency, .may, title: "Two overlapping logins of one user",
                source: "docs/protocol.md §8.2 (pass-1 records are kept per M-Pin ID)",
                sends: "one user, two logins at once",
                expects: "reported only: a pass 1 per M-Pin ID lets one of them fail"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let copy = try await context.copy(user)
                let (first, second) = try await context.inParallel(
                    { () async throws(ConformanceError) in try await context.login(user) },
                    { () async throws(ConformanceError) in try await context.login(copy) })
                let outcomes = [first, second]
                return .informational(
                    "\(outcomes.filter(\.isOK).count) of 2 overlapping logins succeeded (\(outcomes.map(\.description).joined(separator: ", ")))"
                )
            },
        ]
    }

    static func lane(_ context: ConformanceContext, _ user: ProbeUser) async throws(ConformanceError) -> [ProbeOutcome]
    {
        var outcomes: [ProbeOutcome] = []
        for _ in 0..<5 { outcomes.append(try await context.login(user)) }
        return outcomes
    }
}
