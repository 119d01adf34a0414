/// Why `YAMLReader` could not read a text: libyaml's problem, and where it found it.
package struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libyaml's words (`did not find expected node content`), or the composer's (`found undefined
    /// alias`, `but found another document`). A character libyaml's reader refuses has no `mark`: its
    /// problem names the place itself (`3:7: error: reader: control characters are not allowed:`,
    /// the line, a caret under the character).
    package var problem: String
    /// Where the scanner, the parser or the composer found the problem.
    package var mark: YAMLNode.Mark?

    package init(problem: String, mark: YAMLNode.Mark? = nil) {
        self.problem = problem
        self.mark = mark
    }

    /// `line:column: problem`, or the problem alone.
    package var description: String { mark.map { "\($0): \(problem)" } ?? problem }
}
