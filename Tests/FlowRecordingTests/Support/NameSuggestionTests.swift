import FlowRecording
import Testing

/// "Did you mean": the closest known name by edit distance, only when near enough.
@Suite struct NameSuggestionTests {
    @Test func theDistanceIsLevenshteins() {
        #expect(NameSuggestion.distance("kitten", "sitting") == 3)
        #expect(NameSuggestion.distance("", "abc") == 3)
        #expect(NameSuggestion.distance("same", "same") == 0)
    }

    @Test func theClosestNearNameIsSuggested() {
        let names = ["authenticate", "register", "access-number-logout"]
        #expect(NameSuggestion.closest(to: "authentcate", among: names) == "authenticate")
        #expect(NameSuggestion.closest(to: "Register", among: names) == "register")
        #expect(NameSuggestion.closest(to: "zzz", among: names) == nil)
        #expect(NameSuggestion.closest(to: "x", among: [String]()) == nil)
        #expect(NameSuggestion.hint(for: "regster", among: names) == "; did you mean register?")
        #expect(NameSuggestion.hint(for: "nothing-like-it", among: names) == "")
    }
}
