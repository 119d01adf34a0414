import Foundation
import TestSupport
import Testing

/// The getting-started articles of the DocC catalogs end with what their snippet prints. The
/// snippets are built with the package (`swift build` compiles `Snippets/`); here each runs and its
/// output must be the article's "Output" block, so the two cannot drift apart.
@Suite struct SnippetOutputTests {
    struct Article: CustomStringConvertible, Sendable {
        var catalog: String
        var snippet: String
        var description: String { snippet }
    }

    static let articles = [
        Article(catalog: "Sources/MPinSDK/MPinSDK.docc/GettingStarted.md", snippet: "GettingStartedSDK"),
        Article(
            catalog: "Sources/FlowRecording/FlowRecording.docc/GettingStarted.md", snippet: "GettingStartedRecording"),
    ]

    /// The text of the first fenced block after the heading "### Output".
    static func outputBlock(of markdown: String) -> String? {
        guard let heading = markdown.range(of: "\n### Output\n") else { return nil }
        let rest = markdown[heading.upperBound...]
        guard let open = rest.range(of: "```\n") else { return nil }
        guard let close = rest[open.upperBound...].range(of: "\n```") else { return nil }
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test(arguments: articles)
    func theSnippetPrintsWhatItsArticleShows(_ article: Article) throws {
        let markdown = try String(contentsOfFile: RepoPaths.root + "/" + article.catalog, encoding: .utf8)
        let expected = try #require(Self.outputBlock(of: markdown), "\(article.catalog) has no \"### Output\" block")
        let run = try WorkbenchProcess.run(shell: "exec \"$(dirname \"$WORKBENCH\")/\(article.snippet)\"", seconds: 60)
        #expect(run.exited && run.status == 0, "\(article.snippet): \(run)")
        #expect(
            run.stdout == expected + "\n",
            "\(article.snippet) printed:\n\(run.stdout)\n\(article.catalog) shows:\n\(expected)")
    }

    @Test func theOutputBlockIsFoundOrReportedMissing() {
        #expect(Self.outputBlock(of: "# A\n\n### Output\n\n```\none\ntwo\n```\n") == "one\ntwo")
        #expect(Self.outputBlock(of: "# A\n\n```\none\n```\n") == nil)
    }
}
