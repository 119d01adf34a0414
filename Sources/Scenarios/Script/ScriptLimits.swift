import DeviceSecurity

/// The limits on what a scenario script may hold: its size, its nesting, what its aliases expand
/// to, and the numbers its steps give. Past each one the script is refused with an error naming
/// the file, the line and the field (docs/scenarios.md, "Scenarios", "Limits").
package enum ScriptLimits {
    /// The largest script file read, in bytes.
    package static let maximumFileBytes = 1 << 20
    /// The largest script text parsed, in bytes: a cassette's copy of a script is its JSON form with
    /// every alias written out, which may be larger than the file it came from.
    package static let maximumTextBytes = 8 << 20
    /// The deepest nesting of mappings and lists (the bundled scripts nest 6 deep). Deeper text is
    /// refused before it is built, so no input can exhaust the stack.
    package static let maximumDepth = 100
    /// The most values (scalars, lists and mappings) the script holds once every alias is written
    /// out: an alias counts as a copy of what it names.
    package static let maximumValues = 100_000
    /// The most bytes of scalar text the script holds once every alias is written out.
    package static let maximumExpandedBytes = 1 << 20

    /// `startTime`: from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, in milliseconds.
    package static let startTime: ClosedRange<Int64> = 0...253_402_300_799_999
    /// `clock: wait` `seconds`: from one second to ten years of 365 days.
    package static let waitSeconds: ClosedRange<Int64> = 1...315_360_000
    /// `browser: poll` and `browser: accessNumberLogin` `attempts`.
    package static let pollAttempts: ClosedRange<Int> = 1...1_000
    /// `browser: accessNumberLogin` `interval`, in milliseconds: at most a minute between polls.
    package static let pollInterval: ClosedRange<Int> = 0...60_000

    /// `device: configure` `timeout`: the connector's range of request time limits.
    package static var deviceTimeout: ClosedRange<Double> { DeviceSecurity.timeoutRange }

    /// The milliseconds of a `clock: wait` step's `seconds`, or why it is not one.
    package static func waitMilliseconds(_ text: String) -> Result<Int64, LimitError> {
        guard let seconds = Int64(text), waitSeconds.contains(seconds) else {
            return .failure(
                LimitError(
                    "seconds should be a whole number from \(waitSeconds.lowerBound) to \(waitSeconds.upperBound) "
                        + "(ten years), found \"\(text)\""))
        }
        return .success(seconds * 1000)
    }

    /// A `browser: poll` step's `attempts`, or why it is not one.
    package static func attempts(_ text: String) -> Result<Int, LimitError> {
        guard let count = Int(text), pollAttempts.contains(count) else {
            return .failure(
                LimitError(
                    "attempts should be a whole number from \(pollAttempts.lowerBound) to \(pollAttempts.upperBound), "
                        + "found \"\(text)\""))
        }
        return .success(count)
    }

    /// A `browser: accessNumberLogin` step's `interval` in milliseconds, or why it is not one.
    package static func interval(_ text: String) -> Result<Int, LimitError> {
        guard let milliseconds = Int(text), pollInterval.contains(milliseconds) else {
            return .failure(
                LimitError(
                    "interval should be a whole number of milliseconds from \(pollInterval.lowerBound) to "
                        + "\(pollInterval.upperBound), found \"\(text)\""))
        }
        return .success(milliseconds)
    }

    /// A `device: configure` step's `timeout` in seconds, or why it is not one.
    package static func timeout(_ text: String) -> Result<Double, LimitError> {
        guard let seconds = Double(text), deviceTimeout.contains(seconds) else {
            return .failure(
                LimitError(
                    "timeout should be a number of seconds from \(deviceTimeout.lowerBound) to "
                        + "\(Int(deviceTimeout.upperBound)), found \"\(text)\""))
        }
        return .success(seconds)
    }

    /// What is wrong with the value of a step's numeric argument, nil when it is fine or not numeric.
    static func problem(action: StepAction, argument: String, value: String) -> String? {
        let failure: LimitError?
        switch (action, argument) {
        case (.clock(.wait), "seconds"): failure = waitMilliseconds(value).failure
        case (.browser(.poll), "attempts"), (.browser(.accessNumberLogin), "attempts"):
            failure = attempts(value).failure
        case (.browser(.accessNumberLogin), "interval"): failure = interval(value).failure
        case (.device(.configure), "timeout"): failure = timeout(value).failure
        default: failure = nil
        }
        return failure?.description
    }
}

/// Why a number of a script is out of its range: the field, the range and what was found.
package struct LimitError: Error, Sendable, Hashable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

extension Result {
    /// The error, nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
