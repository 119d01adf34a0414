import SDKSeams
import Testing

@Suite struct NamedValueTests {
    @Test func lookupByNameGivesTheFirstMatch() {
        let values = [NamedValue("user", "alice"), NamedValue("backend", "a"), NamedValue("backend", "b")]
        #expect(values.value(named: "backend") == "a")
        #expect(values.value(named: "user") == "alice")
        #expect(values.value(named: "Backend") == nil)
        #expect([NamedValue]().value(named: "user") == nil)
    }

    @Test func statusDescribesCodeAndMessage() {
        #expect(
            ClientEvent.Status(code: "INCORRECT_PIN", message: "Incorrect PIN").description
                == "INCORRECT_PIN: Incorrect PIN")
    }
}
