import FileAccess
import Testing

/// Command lines written for a user to run again: quoted as `sh` needs them, and read back as `sh`
/// reads them.
@Suite struct ShellWordsTests {
    @Test(arguments: [
        "plain", "with space", "it's", "", #"a "b" c"#, "$HOME", "tab\tnew\nline", #"back\slash"#, "*?[{~#",
    ])
    func aQuotedWordReadsBackAsItself(word: String) {
        #expect(ShellWords.split("cmd " + ShellWords.quote(word)) == ["cmd", word])
    }

    @Test func plainWordsStayUnquoted() {
        #expect(ShellWords.quote("workbench-2026-1") == "workbench-2026-1")
        #expect(ShellWords.quote("http://127.0.0.1:8005/x") == "http://127.0.0.1:8005/x")
        #expect(ShellWords.quote("a b") == "'a b'")
        #expect(ShellWords.quote("it's") == #"'it'\''s'"#)
    }

    @Test func quotesAndEscapesAreReadAsAShellDoes() {
        #expect(ShellWords.split(#"a  "b c" 'd e'f g\ h "\$x" "\q""#) == ["a", "b c", "d ef", "g h", "$x", #"\q"#])
        #expect(ShellWords.split("") == [])
        #expect(ShellWords.split(#"a """#) == ["a", ""])
    }

    @Test(arguments: ["'open", "\"open", "end\\", "a $HOME", "a;b", "a | b", "a `b`", "a > f", "a\nb", "a *"])
    func whatIsNotOnePlainCommandIsRefused(line: String) {
        #expect(ShellWords.split(line) == nil)
    }
}
