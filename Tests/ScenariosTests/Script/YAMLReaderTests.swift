import Scenarios
import Testing

/// The scenario scripts' YAML reader: libyaml's events composed into nodes, every scalar as text,
/// libyaml's problems with their line and column (the words and places scripts' errors have always
/// given).
@Suite struct YAMLReaderTests {
    func failure(_ text: String) -> YAMLError? {
        do {
            _ = try YAMLReader.compose(text)
            Issue.record("\(text.debugDescription) was read")
            return nil
        } catch {
            return error
        }
    }

    @Test func scalarsAreTextAndMappingsKeepTheirOrderAndPlaces() throws {
        let root = try #require(try YAMLReader.compose("b: 1\na: [true, ~, \"x\"]\n"))
        let mapping = try #require(root.mapping)
        #expect(mapping.compactMap(\.key.string) == ["b", "a"])
        #expect(mapping["b"]?.string == "1" && mapping["b"]?.mark == YAMLNode.Mark(line: 1, column: 4))
        #expect(mapping["a"]?.sequence?.compactMap(\.string) == ["true", "~", "x"])
        #expect(
            mapping["a"]?.sequence?[2].scalar?.isPlain == false && mapping["a"]?.sequence?[2].tag == YAMLNode.stringTag)
        #expect(try YAMLReader.compose("") == nil && YAMLReader.compose("# a comment\n") == nil)
    }

    @Test func anAliasIsItsAnchorsNodeAndANameLookupSkipsOtherTags() throws {
        let root = try #require(try YAMLReader.compose("a: &x {k: v}\nb: *x\n!!int c: 1\n'd': 2\n"))
        #expect(root["b"]?["k"]?.string == "v" && root["b"]?.mark.line == 1)
        #expect(root["c"] == nil && root["d"]?.string == "2")
        #expect(try YAMLReader.compose("? {=: name}\n: x\n")?.mapping?.first?.key.string == "name")
    }

    @Test func problemsAreLibyamlsWithTheirPlace() throws {
        #expect(
            failure("steps:\n  - sdk: [unclosed\n")
                == YAMLError(problem: "did not find expected ',' or ']'", mark: YAMLNode.Mark(line: 3, column: 1)))
        #expect(
            failure("a: *nowhere\n")
                == YAMLError(problem: "found undefined alias", mark: YAMLNode.Mark(line: 1, column: 4)))
        #expect(
            failure("a: 1\n---\nb: 2\n")
                == YAMLError(problem: "but found another document", mark: YAMLNode.Mark(line: 2, column: 1)))
        #expect(
            failure("a: x\u{1}\n")
                == YAMLError(problem: "1:5: error: reader: control characters are not allowed:\na: x\u{1}\n    ^"))
    }

    @Test func aScriptsYAMLErrorNamesTheLineAndColumn() throws {
        do {
            _ = try ScriptParser.parse("name: x\nsteps: [\n", file: "s.yaml")
            Issue.record("parsed")
        } catch {
            #expect(error.description == "s.yaml:3:1: not valid YAML: did not find expected node content")
        }
    }
}
