/// A script that cannot be read or run: the file, the line (and column), the step, and why.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The step's index and name, when the problem is inside a step.
    public var stepIndex: Int?
    public var stepName: String?
    public var message: String

    public init(
        file: String, line: Int? = nil, column: Int? = nil, stepIndex: Int? = nil, stepName: String? = nil,
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.stepIndex = stepIndex
        self.stepName = stepName
        self.message = message
    }

    /// `Scenarios/x.yaml:12:5: step 3 "finish registration": unknown argument "pn" …`
    public var description: String {
        var text = file
        if let line { text += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        text += ": "
        if let stepIndex { text += "step \(stepIndex)" + (stepName.map { " \"\($0)\"" } ?? "") + ": " }
        return text + message
    }
}

/// A step whose result did not meet its expectation (or that could not be carried out).
public struct ScenarioFailure: Error, Sendable, CustomStringConvertible {
    public var error: ScriptError
    /// In a script with `checks: continue`, the unmet expectations after the first (`error`), in
    /// step order; the run went on past each.
    public var laterChecks: [ScriptError] = []
    public init(_ error: ScriptError) { self.error = error }
    public var description: String {
        guard !laterChecks.isEmpty else { return error.description }
        return error.description + "\n" + laterChecks.map { "  and \($0)" }.joined(separator: "\n")
    }
}
