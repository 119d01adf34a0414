import Foundation
import TestSupport
import Testing

/// The documentation cannot drift from the code (issue 29): README.md, CONTRIBUTING.md,
/// CHANGELOG.md, docs/ and the DocC catalogs are read here and held to what the repository holds.
///
/// * A fenced block right after a line `<!-- runnable -->` is run: each line `$ command` runs in
///   a shell (standard error joined to standard output) with `mpin-workbench` on the PATH, in a
///   temporary folder holding links to `Scenarios/`, `Recordings/` and `Vectors/`; what it prints
///   must be the lines that follow, up to the next `$`. In them `…` stands for any text within a
///   line, and a line that is only `…` for any number of lines (timings and other figures that
///   vary). A file's blocks run in order in one folder, so a later block may use an earlier one's
///   files.
/// * A fenced block right after a line `<!-- file: PATH -->` must be that file of the repository,
///   byte for byte (the README's cassette test is the example package's test file).
/// * Every relative link, every citation of a `docs/….md` file and every `X.md` name points at a
///   file that exists, and every "docs/protocol.md §N" or "docs/crypto.md §N" at a section that
///   the file has.
/// * docs/cli.md is what `Scripts/cli-reference.sh` makes from the built executable's help.
/// * The README's architecture sketch lists each target above every target it depends on.
/// * docs/architecture.md's generated section is what `make arch-docs` makes from the package, the
///   page has an entry for every target, and `make docs` builds every DocC catalog.
@Suite struct DocsTests {
    /// The Markdown files a reader meets: README, CONTRIBUTING, CHANGELOG, docs/ and the DocC catalogs.
    static let markdownFiles: [String] = {
        var files = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        files += Self.files(under: "docs", ending: ".md")
        files += Self.files(under: "Sources", ending: ".md").filter { $0.contains(".docc/") }
        return files
    }()

    /// The files whose comments and strings cite the documentation.
    static let citingFiles: [String] =
        markdownFiles
        + files(under: "Sources", ending: ".swift")
        + files(under: "Tests", ending: ".swift").filter { !$0.hasSuffix("/DocsTests.swift") }
        + files(under: "Snippets", ending: ".swift") + files(under: "Scripts", ending: "")
        + files(under: "Examples/MPinConsumer/Sources", ending: ".swift")
        + files(under: "Examples/MPinConsumer/Tests", ending: ".swift")
        + ["Makefile", "Package.swift", "Examples/MPinConsumer/Package.swift", "Fuzz/Package.swift", "Fuzz/run.sh"]

    // MARK: - Runnable examples

    struct Example: CustomStringConvertible, Sendable {
        var file: String
        var line: Int
        var command: String
        var expected: [String]
        var description: String { "\(file):\(line): $ \(command)" }
    }

    /// The commands of a file's runnable blocks, in order, each with the lines it must print.
    static func examples(in markdown: String, file: String) -> [Example] {
        let lines = markdown.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == "<!-- runnable -->",
                index + 1 < lines.count, lines[index + 1].hasPrefix("```")
            else { continue }
            index += 2
            while index < lines.count, !lines[index].hasPrefix("```") {
                let line = lines[index]
                if line.hasPrefix("$ ") {
                    examples.append(
                        Example(file: file, line: index + 1, command: String(line.dropFirst(2)), expected: []))
                } else if !examples.isEmpty, examples[examples.count - 1].file == file {
                    examples[examples.count - 1].expected.append(line)
                }
                index += 1
            }
        }
        return examples
    }

    /// Whether `output` is what `expected` shows, with `…` standing for what varies.
    static func matches(_ output: String, _ expected: [String]) -> Bool {
        var pattern = "^"
        for line in expected {
            if line == "…" {
                pattern += "(?:[^\\n]*\\n)*?"
            } else {
                pattern +=
                    line.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:)).joined(
                        separator: "[^\\n]*") + "\\n"
            }
        }
        pattern += "$"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        let text = output.hasSuffix("\n") || output.isEmpty ? output : output + "\n"
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static var filesWithExamples: [String] {
        markdownFiles.filter { file in
            let text = (try? String(contentsOfFile: RepoPaths.path(file), encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n").contains {
                $0.trimmingCharacters(in: .whitespaces) == "<!-- runnable -->"
            }
        }
    }

    @Test(arguments: filesWithExamples)
    func theRunnableExamplesPrintWhatTheyShow(_ file: String) async throws {
        let markdown = try String(contentsOfFile: RepoPaths.path(file), encoding: .utf8)
        let examples = Self.examples(in: markdown, file: file)
        #expect(!examples.isEmpty, "\(file) marks a block runnable but it has no `$ ` line")
        // `work/` is the reader's repository root: the repository's folders, and `../shared`
        // beside it when this machine has the shared data (commands that read it run only then).
        let top = try TemporaryDirectory.make("mpin-docs")
        defer { try? FileManager.default.removeItem(atPath: top) }
        let folder = top + "/work"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for name in ["Scenarios", "Recordings", "Vectors", "Examples", "Scripts"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/" + name, withDestinationPath: RepoPaths.path(name))
        }
        // `python3` in the commands is the interpreter it resolves to (``PythonInterpreter``), not a
        // version manager's shim, which the client suite's driver would start some 160 times.
        var path = "$(dirname \"$WORKBENCH\")"
        if let python = PythonInterpreter.path {
            try FileManager.default.createDirectory(atPath: top + "/bin", withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: top + "/bin/python3", withDestinationPath: python)
            path += ":" + top + "/bin"
        }
        let hasShared = FileManager.default.fileExists(atPath: SharedData.root)
        if hasShared {
            try FileManager.default.createSymbolicLink(atPath: top + "/shared", withDestinationPath: SharedData.root)
        }
        for example in examples {
            if example.command.contains("../shared"), !hasShared { continue }
            let shell = "PATH=\"\(path):$PATH\"; export PATH; exec 2>&1; " + example.command
            let run = try await WorkbenchProcess.runWaitingElsewhere(shell: shell, in: folder, seconds: 300)
            #expect(run.exited, "\(example) did not finish: \(run)")
            #expect(
                Self.matches(run.stdout, example.expected),
                "\(example) printed:\n\(run.stdout)\n\(file) shows:\n\(example.expected.joined(separator: "\n"))")
        }
    }

    /// A fenced block that shows a command: a line `$ …`, or a line that starts with a command of
    /// the repository (`mpin-workbench`, `make`, `swift`; an indented one is a report's hint).
    static func isCommandBlock(_ lines: [String]) -> Bool {
        lines.contains { line in ["$ ", "mpin-workbench ", "make ", "swift "].contains { line.hasPrefix($0) } }
    }

    /// The command blocks of docs/ that carry neither marker, as `file:line`; docs/cli.md, which
    /// is the help's text (`Scripts/cli-reference.sh`), is not read.
    static func unmarkedCommandBlocks(in markdown: String, file: String) -> [String] {
        let lines = markdown.components(separatedBy: "\n")
        var problems: [String] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !lines[end].hasPrefix("```") { end += 1 }
            let marker =
                lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces) ?? ""
            let marked =
                marker == "<!-- runnable -->"
                || (marker.hasPrefix("<!-- not runnable: ") && marker.hasSuffix(" -->")
                    && marker.count > "<!-- not runnable:  -->".count)
            if Self.isCommandBlock(Array(lines[min(index + 1, end)..<end])), !marked {
                problems.append("\(file):\(index + 1)")
            }
            index = end + 1
        }
        return problems
    }

    /// Every command block of docs/ runs in the test above (`<!-- runnable -->`), or says why it
    /// cannot (`<!-- not runnable: REASON -->`: a synopsis, a server that runs until stopped, a
    /// step that needs another machine).
    @Test func everyCommandBlockIsRunnableOrSaysWhyNot() throws {
        var problems: [String] = []
        for file in Self.markdownFiles where file.hasPrefix("docs/") && file != "docs/cli.md" {
            let markdown = try String(contentsOfFile: RepoPaths.path(file), encoding: .utf8)
            problems += Self.unmarkedCommandBlocks(in: markdown, file: file)
        }
        let listed = problems.joined(separator: "\n")
        #expect(
            problems.isEmpty,
            "command blocks with neither <!-- runnable --> nor <!-- not runnable: REASON --> before them:\n\(listed)")
        // The rule itself: an unmarked block is found, a marked one and a code block are not.
        let sample =
            "a\n```\n$ mpin-workbench x\n```\n<!-- not runnable: a synopsis -->\n```\nmpin-workbench y\n```\n"
            + "<!-- not runnable:  -->\n```\n$ z\n```\n```swift\nlet a = 1\n```\n"
        #expect(Self.unmarkedCommandBlocks(in: sample, file: "x.md") == ["x.md:2", "x.md:10"])
    }

    @Test func examplesAreFoundAndVariableFiguresMatchAnything() {
        let markdown = "text\n<!-- runnable -->\n```console\n$ echo a\na 1.5 s\n$ true\n```\n\n```\n$ not run\n```\n"
        let found = Self.examples(in: markdown, file: "x.md")
        #expect(found.map(\.command) == ["echo a", "true"])
        #expect(found.first?.expected == ["a 1.5 s"])
        #expect(Self.matches("a 0.02 s\n", ["a … s"]))
        #expect(!Self.matches("b 0.02 s\n", ["a … s"]))
        #expect(Self.matches("one\ntwo\nthree\nlast\n", ["one", "…", "last"]))
        #expect(Self.matches("one\nlast\n", ["one", "…", "last"]))
        #expect(!Self.matches("one\ntwo\n", ["one"]))
    }

    // MARK: - Blocks that are files

    @Test(arguments: markdownFiles)
    func aBlockThatNamesAFileIsThatFile(_ file: String) throws {
        let lines = try String(contentsOfFile: RepoPaths.path(file), encoding: .utf8).components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
            guard line.hasPrefix("<!-- file: "), let range = line.range(of: "<!-- file: "),
                let end = line.range(of: " -->")
            else { continue }
            let path = String(line[range.upperBound..<end.lowerBound])
            try #require(
                index + 1 < lines.count && lines[index + 1].hasPrefix("```"),
                "\(file):\(index + 1): no block after the file marker")
            guard let close = lines[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") }) else {
                Issue.record("\(file):\(index + 2): the block is not closed")
                continue
            }
            let block = lines[(index + 2)..<close].map { $0 + "\n" }.joined()
            let contents = try String(contentsOfFile: RepoPaths.path(path), encoding: .utf8)
            #expect(block == contents, "\(file):\(index + 2): the block differs from \(path)")
        }
    }

    /// DocC articles show no HTML comments, so their file blocks are named here: one of the article's
    /// Swift blocks must be the file.
    static let docCFileBlocks = [
        (
            "Sources/WorkbenchTesting/WorkbenchTesting.docc/GettingStarted.md",
            "Examples/MPinConsumer/Tests/MPinConsumerTests/FirstCassetteTests.swift"
        )
    ]

    @Test func theDocCArticlesTestIsTheExamplePackagesFile() throws {
        for (article, path) in Self.docCFileBlocks {
            let markdown = try String(contentsOfFile: RepoPaths.path(article), encoding: .utf8)
            let blocks = markdown.components(separatedBy: "```swift\n").dropFirst().compactMap {
                $0.components(separatedBy: "```").first
            }
            let contents = try String(contentsOfFile: RepoPaths.path(path), encoding: .utf8)
            #expect(blocks.contains(contents), "\(article) shows no Swift block that is \(path)")
        }
    }

    // MARK: - Links and citations

    struct Citation: CustomStringConvertible {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    /// The relative targets of Markdown links `[text](target)` in a Markdown file (no scheme, no
    /// bare anchor), without their `#anchor`.
    static func relativeLinks(in text: String, file: String) -> [Citation] {
        let regex = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        return citations(of: regex, in: text, file: file).compactMap { citation in
            let target = citation.text
            if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { return nil }
            return Citation(
                file: citation.file, line: citation.line, text: String(target.split(separator: "#", maxSplits: 1)[0]))
        }
    }

    static func citations(of regex: NSRegularExpression, in text: String, file: String, group: Int = 1) -> [Citation] {
        var result: [Citation] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            for match in regex.matches(in: line, range: range) {
                guard let found = Range(match.range(at: group), in: line) else { continue }
                result.append(Citation(file: file, line: index + 1, text: String(line[found])))
            }
        }
        return result
    }

    @Test func everyRelativeLinkPointsAtAFileThatExists() throws {
        var missing: [Citation] = []
        for file in Self.markdownFiles {
            let text = try String(contentsOfFile: RepoPaths.path(file), encoding: .utf8)
            let folder = (file as NSString).deletingLastPathComponent
            for link in Self.relativeLinks(in: text, file: file) {
                let path = ((folder.isEmpty ? "" : folder + "/") + link.text as NSString).standardizingPath
                // DocC finds a catalog's pictures by name in its Resources folder.
                let resource = folder.hasSuffix(".docc") ? folder + "/Resources/" + link.text : nil
                if FileManager.default.fileExists(atPath: RepoPaths.path(path)) { continue }
                if let resource, FileManager.default.fileExists(atPath: RepoPaths.path(resource)) { continue }
                missing.append(link)
            }
        }
        #expect(
            missing.isEmpty, "links to files that do not exist:\n\(missing.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyCitedDocumentExistsAndHasTheCitedSection() throws {
        let document = try NSRegularExpression(
            pattern:
                #"(?<![\w./-])((?:docs/)(?:[\w-]+/)*[\w-]+\.md)(?:\s*(?:\n\s*(?://+|#+)?\s*)?§\s?([0-9]+(?:\.[0-9]+)?))?"#
        )
        let bare = try NSRegularExpression(pattern: #"(?<![\w./-])([A-Z][A-Z0-9_-]*\.md)\b"#)
        var problems: [String] = []
        var sections: [String: Set<String>] = [:]
        for file in Self.citingFiles {
            guard let text = try? String(contentsOfFile: RepoPaths.path(file), encoding: .utf8) else { continue }
            let range = NSRange(text.startIndex..., in: text)
            for match in document.matches(in: text, range: range) {
                guard let pathRange = Range(match.range(at: 1), in: text) else { continue }
                let path = String(text[pathRange])
                let line = text[..<pathRange.lowerBound].filter { $0 == "\n" }.count + 1
                guard FileManager.default.fileExists(atPath: RepoPaths.path(path)) else {
                    problems.append("\(file):\(line): \(path) does not exist")
                    continue
                }
                guard let sectionRange = Range(match.range(at: 2), in: text) else { continue }
                let section = String(text[sectionRange])
                if sections[path] == nil { sections[path] = try Self.numberedSections(of: path) }
                if sections[path]?.contains(section) != true {
                    problems.append("\(file):\(line): \(path) has no section §\(section)")
                }
            }
            for citation in Self.citations(of: bare, in: text, file: file) {
                let folder = (file as NSString).deletingLastPathComponent
                let candidates = [citation.text, (folder.isEmpty ? "" : folder + "/") + citation.text]
                if candidates.contains(where: { FileManager.default.fileExists(atPath: RepoPaths.path($0)) }) {
                    continue
                }
                problems.append("\(citation): \(citation.text) is not a file of the repository")
            }
        }
        #expect(
            problems.isEmpty,
            "citations of documents or sections that do not exist:\n\(problems.joined(separator: "\n"))")
    }

    /// The numbers of a document's numbered headings: "## 3. …" gives 3, "### 3.4 …" gives 3.4,
    /// and an item "8. …" of a numbered list under "## 11. …" gives 11.8.
    static func numberedSections(of path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: RepoPaths.path(path), encoding: .utf8)
        let heading = try NSRegularExpression(pattern: #"^#{2,4} ([0-9]+(?:\.[0-9]+)?)\.? "#)
        let item = try NSRegularExpression(pattern: #"^([0-9]+)\. "#)
        var numbers: Set<String> = []
        var current: String?
        for line in text.components(separatedBy: "\n") {
            let range = NSRange(line.startIndex..., in: line)
            if let match = heading.firstMatch(in: line, range: range), let found = Range(match.range(at: 1), in: line) {
                numbers.insert(String(line[found]))
                current = String(line[found]).split(separator: ".").first.map(String.init)
            } else if line.hasPrefix("#") {
                current = nil
            } else if let current, let match = item.firstMatch(in: line, range: range),
                let found = Range(match.range(at: 1), in: line)
            {
                numbers.insert(current + "." + line[found])
            }
        }
        return numbers
    }

    @Test func sectionCitationsAreFoundAcrossACommentLineBreak() throws {
        #expect(try Self.numberedSections(of: "docs/protocol.md").isSuperset(of: ["1", "3.4", "6.7", "11.8", "14"]))
        #expect(try Self.numberedSections(of: "docs/crypto.md").isSuperset(of: ["2.1", "2.3", "5", "7"]))
    }

    // MARK: - The command-line reference

    @Test func theCommandLineReferenceIsWhatTheHelpSays() throws {
        let run = try WorkbenchProcess.run(shell: "exec Scripts/cli-reference.sh \"$WORKBENCH\"", seconds: 120)
        #expect(run.exited && run.status == 0, "Scripts/cli-reference.sh: \(run)")
        let committed = try String(contentsOfFile: RepoPaths.path("docs/cli.md"), encoding: .utf8)
        #expect(
            run.stdout == committed,
            "docs/cli.md differs from the executable's help: run `make cli-docs` (or Scripts/cli-reference.sh PATH > docs/cli.md)"
        )
    }

    // MARK: - The README

    @Test func theReadmeIsAFrontDoor() throws {
        let readme = try String(contentsOfFile: RepoPaths.path("README.md"), encoding: .utf8)
        #expect(readme.components(separatedBy: "\n").count <= 300)
    }

    /// The rows of the README's architecture sketch, top to bottom, each the target names on it.
    static func sketchRows(of readme: String) -> [[String]] {
        guard let start = readme.range(of: "```\nmpin-workbench ") else { return [] }
        guard let end = readme[start.upperBound...].range(of: "\n```") else { return [] }
        let block = readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound]
        return block.components(separatedBy: "\n").map { line in
            line.components(separatedBy: "   ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.contains(" ") }
        }
    }

    @Test func theArchitectureSketchPutsEachTargetAboveWhatItDependsOn() throws {
        let readme = try String(contentsOfFile: RepoPaths.path("README.md"), encoding: .utf8)
        let rows = Self.sketchRows(of: readme)
        try #require(rows.count > 3, "README.md has no architecture sketch")
        var row: [String: Int] = [:]
        for (index, names) in rows.enumerated() { for name in names { row[name] = index } }
        let package = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.packageDump().utf8)) as? [String: Any])
        let targets = try #require(package["targets"] as? [[String: Any]])
        var wrong: [String] = []
        for target in targets {
            guard let name = target["name"] as? String, let level = row[name] else { continue }
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                guard let value = dependency.values.first as? [Any], let used = value.first as? String,
                    let usedLevel = row[used]
                else { continue }
                if usedLevel <= level {
                    wrong.append("\(name) depends on \(used), which the sketch does not put below it")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        let names = Set(targets.compactMap { $0["name"] as? String })
        #expect(
            Set(row.keys).isSubset(of: names),
            "the sketch names targets the package does not have: \(Set(row.keys).subtracting(names))")
    }

    // MARK: - docs/architecture.md

    /// `swift package dump-package`: the package as JSON.
    static func packageDump() throws -> String {
        // A scratch folder of its own: the running `swift test` holds the lock of .build.
        let scratch = try TemporaryDirectory.make("mpin-docs-dump")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let run = try WorkbenchProcess.run(
            shell: "exec swift package --scratch-path '\(scratch)' dump-package", seconds: 120)
        try #require(run.exited && run.status == 0, "swift package dump-package: \(run)")
        return run.stdout
    }

    /// The generated section of `markdown`: from its first marker line to the end of its last.
    static func generatedSection(of markdown: String) -> String? {
        guard let start = markdown.range(of: "<!-- generated by `make arch-docs`"),
            let end = markdown.range(
                of: "<!-- end of the generated section -->\n", range: start.upperBound..<markdown.endIndex)
        else { return nil }
        return String(markdown[start.lowerBound..<end.upperBound])
    }

    @Test(
        "docs/architecture.md's generated section (products, counts, target graph, DocC catalogs) is what the package gives"
    )
    func theArchitectureSectionIsWhatThePackageGives() throws {
        let folder = try TemporaryDirectory.make("mpin-arch-docs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.packageDump().write(toFile: folder + "/package.json", atomically: true, encoding: .utf8)
        let run = try WorkbenchProcess.run(
            shell: "exec python3 Scripts/target_graph.py '\(folder)/package.json' --section", seconds: 60)
        try #require(run.exited && run.status == 0, "Scripts/target_graph.py --section: \(run)")
        let page = try String(contentsOfFile: RepoPaths.path("docs/architecture.md"), encoding: .utf8)
        let committed = try #require(Self.generatedSection(of: page), "docs/architecture.md has no generated section")
        #expect(
            committed == run.stdout,
            "docs/architecture.md's generated section differs from the package: run `make arch-docs`")
    }

    @Test("every target of the package has an entry (**Name**) on docs/architecture.md, and the page names no other")
    func everyTargetIsDescribedOnTheArchitecturePage() throws {
        let package = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.packageDump().utf8)) as? [String: Any])
        let targets = (package["targets"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "test" }
            .compactMap { $0["name"] as? String }
        let page = try String(contentsOfFile: RepoPaths.path("docs/architecture.md"), encoding: .utf8)
        #expect(targets.count > 20)
        let missing = targets.filter { !page.contains("**\($0)**") }
        #expect(missing.isEmpty, "docs/architecture.md describes no \(missing.joined(separator: ", "))")
        let named = try Regex(#"\* \*\*([A-Za-z-]+)\*\*"#)
        let entries = page.matches(of: named).map { String($0.output[1].substring ?? "") }
        #expect(
            Set(entries).isSubset(of: Set(targets)),
            "entries for targets the package lacks: \(Set(entries).subtracting(targets))")
    }

    @Test("`make docs` builds every DocC catalog (Sources/<Target>/<Target>.docc) and no other target")
    func makeDocsBuildsEveryCatalog() throws {
        let makefile = try String(contentsOfFile: RepoPaths.path("Makefile"), encoding: .utf8)
        let recipe = try #require(
            makefile.components(separatedBy: "\ndocs:\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        let built = Set(recipe.matches(of: try Regex(#"--target (\S+)"#)).map { String($0.output[1].substring ?? "") })
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: RepoPaths.path("Sources")).filter { name in
            FileManager.default.fileExists(atPath: RepoPaths.path("Sources/\(name)/\(name).docc"))
        }
        #expect(
            !built.isEmpty && built == Set(catalogs),
            "make docs builds \(built.sorted()); the catalogs are \(catalogs.sorted())")
    }

    // MARK: - Support

    /// The repository's files under `folder` (relative paths) whose names end with `suffix`,
    /// build folders left out.
    static func files(under folder: String, ending suffix: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: RepoPaths.path(folder)) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasPrefix(".build") || relative.contains("/.build") || relative.contains("Fixtures/")
                || relative.contains("Corpus/")
            {
                continue
            }
            let path = folder + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: RepoPaths.path(path), isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            if suffix.isEmpty || relative.hasSuffix(suffix) { found.append(path) }
        }
        return found.sorted()
    }
}
