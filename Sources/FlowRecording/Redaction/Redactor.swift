import CommonFormats
import OrderedJSON

/// Replaces secrets by `{{name}}` placeholders, and puts them back.
///
/// Redaction works in two passes. First it collects the secret values: the values found under the
/// given field names (compared without case) in call arguments and outputs, crypto inputs and
/// outputs, random draws (by purpose; a draw without one under the name `random`), header fields, URL query parameters and members of JSON
/// bodies. Then it replaces every occurrence of those values as a whole token anywhere in the
/// cassette: a whole argument, crypto value, random draw, header value, URL path segment or query
/// value, a whole JSON string in a JSON body or in an argument or output that holds JSON text (the
/// other bytes stay as they were), or a substring of a non-JSON text body, argument or output
/// (values of 8 characters or more, all found in one pass by their UTF-8 bytes, leftmost then
/// longest: `SecretScanner`). A regOTT learned from one response is so also hidden in the later
/// URL that carries it.
///
/// The scenario script the cassette carries is redacted too: its members under the given field
/// names are secrets (a wrong PIN that only the script names, say; not the members of a `capture`,
/// which name outputs), and every whole string of the script equal to a secret becomes its placeholder. A number under a secret field (`pin: 1234`
/// unquoted in YAML) becomes a placeholder string, so it restores as the string `"1234"`.
///
/// Each distinct value gets its own placeholder: the field name, then `name_2`, `name_3`, ... for
/// further values of the same field. The cassette's `redactions` manifest lists them. Restoring
/// replaces each placeholder by its value and gives back the exact original bytes.
public struct Redactor: Sendable {
    /// The field names whose values are secrets. The recording library knows no protocol: the
    /// layer that does names them (the Milagro secrets are `Redactor.milagroFields`, in MilagroRecording).
    public var fields: [String]

    /// The field name of a random draw recorded without a purpose.
    public static let drawField = "random"

    public init(fields: [String]) {
        self.fields = fields
    }

    /// The field name of the scenario's seed (`scenario.seed` and the script's `seed`): with it,
    /// a seeded run's every draw can be made again. It is replaced in those two places only, never
    /// as a token elsewhere: a seed is often a word of the flow too (`devicesecurity`, a path
    /// segment).
    public static let seedField = "seed"

    /// The cassette with the secrets under `fields` replaced; earlier placeholders are kept.
    ///
    /// Each manifest entry lists the slots its placeholder went into (`RedactionSlot`), which
    /// `restore` fills and nothing else.
    public func redact(_ cassette: Cassette) -> Cassette {
        let wanted = Set(fields.map { $0.lowercased() })
        let collected = collect(cassette, wanted)
        var secrets = collected.secrets
        let jsonBodies = collected.jsonBodies
        let seed = wanted.contains(Self.seedField) ? Self.seedValue(cassette) : nil
        if let seed { secrets.removeAll { $0.value == seed && $0.field.lowercased() == Self.seedField } }
        guard !secrets.isEmpty || seed != nil else { return cassette }
        // Name the values, avoiding names already in use.
        var used = Set(Self.placeholderNames(in: cassette)).union(cassette.redactions.map(\.placeholder))
        var byValue: [String: String] = [:]
        var order: [(placeholder: String, field: String)] = []
        var countPerField: [String: Int] = [:]
        func name(for field: String) -> String {
            var number = countPerField[field, default: 0]
            var name: String
            repeat {
                number += 1
                name = number == 1 ? field : "\(field)_\(number)"
            } while used.contains(name)
            countPerField[field] = number
            used.insert(name)
            return name
        }
        for (field, value) in secrets where byValue[value] == nil {
            let placeholder = name(for: field)
            byValue[value] = placeholder
            order.append((placeholder, field))
        }
        var counts: [String: Int] = [:]
        var slots: [String: Set<RedactionSlot>] = [:]
        var slot = RedactionSlot.scenario
        func put(_ name: String, _ times: Int = 1) {
            counts[name, default: 0] += times
            slots[name, default: []].insert(slot)
        }
        var out = cassette
        let whole: (String) -> String = { text in
            guard let name = byValue[text] else { return text }
            put(name)
            return Placeholder.text(name)
        }
        if let seed {
            let placeholder = name(for: Self.seedField)
            order.append((placeholder, Self.seedField))
            out.scenario.seed = out.scenario.seed.map {
                $0 == seed
                    ? {
                        put(placeholder)
                        return Placeholder.text(placeholder)
                    }() : $0
            }
            out.scenario.script = out.scenario.script.map { script in
                Self.replaceSeed(in: script, seed) {
                    put(placeholder)
                    return Placeholder.text(placeholder)
                }
            }
        }
        out.scenario.script = out.scenario.script.map { script in
            Self.mapScript(script, secretFields: wanted) { literal, isNumber in
                let replaced = whole(literal)
                return isNumber && replaced == literal ? nil : replaced
            }
        }
        // The values of 8 characters or more are also searched for inside text, all in one pass.
        let inText = byValue.filter { $0.key.count >= 8 }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let scanner = SecretScanner(inText.map { ($0.key, Placeholder.text($0.value)) })
        out.events = cassette.events.enumerated().map { index, event in
            Self.map(
                event, enter: { slot = RedactionSlot(event: index, part: $0) }, whole: whole,
                inText: { text in scanner.replace(in: text) { put(inText[$0].value) } },
                isJSONBody: { jsonBodies.contains(RedactionSlot(event: index, part: $0)) })
        }
        out.redactions += order.map {
            Cassette.RedactionEntry(
                placeholder: $0.placeholder, field: $0.field,
                occurrences: counts[$0.placeholder, default: 0],
                slots: slots[$0.placeholder, default: []].sorted())
        }
        return out
    }

    /// The seed a cassette names: `scenario.seed`, else the script's `seed` (nil for none, or one
    /// that is already a placeholder).
    static func seedValue(_ cassette: Cassette) -> String? {
        var script: String?
        if case .object(let members)? = cassette.scenario.script {
            for member in members where member.name.lowercased() == seedField {
                switch member.value {
                case .string(let text), .number(let text): script = text
                default: break
                }
            }
        }
        let seed = cassette.scenario.seed ?? script
        return seed.flatMap { Placeholder.whole($0) == nil && !$0.isEmpty ? $0 : nil }
    }

    /// The script with its top-level `seed` member, when it is `seed`, replaced by `placeholder()`.
    static func replaceSeed(in script: JSONValue, _ seed: String, _ placeholder: () -> String) -> JSONValue {
        guard case .object(let members) = script else { return script }
        return .object(
            members.map { member in
                guard member.name.lowercased() == seedField else { return member }
                switch member.value {
                case .string(let text) where text == seed, .number(let text) where text == seed:
                    return JSONValue.Member(member.name, .string(placeholder()))
                default: return member
                }
            })
    }

    /// The cassette with every placeholder replaced by its value from `values`, in the slots its
    /// manifest entry lists (`RedactionSlot`) and nowhere else, and no manifest. A placeholder
    /// found in a slot its entry does not list (the file was edited, or it was written before
    /// the manifest said where) stays as it is.
    ///
    /// - Throws: `RedactionError` naming every placeholder of the manifest without a value.
    public static func restore(_ cassette: Cassette, values: [String: String], path: String? = nil)
        throws(RedactionError) -> Cassette
    {
        let needed = Set(cassette.redactions.map(\.placeholder))
        let missing = needed.filter { values[$0] == nil }.sorted()
        guard missing.isEmpty else { throw RedactionError(missing: missing, path: path) }
        guard !needed.isEmpty else { return cassette }
        var bySlot: [RedactionSlot: [String: String]] = [:]
        for entry in cassette.redactions {
            guard let value = values[entry.placeholder] else { continue }
            for slot in entry.slots { bySlot[slot, default: [:]][entry.placeholder] = value }
        }
        var out = cassette
        let scenarioValues = bySlot[.scenario] ?? [:]
        out.scenario.seed = cassette.scenario.seed.map { Placeholder.fill($0, scenarioValues) }
        out.scenario.script = cassette.scenario.script.map { script in
            mapScript(script, secretFields: []) { literal, isNumber in
                isNumber ? nil : Placeholder.fill(literal, scenarioValues)
            }
        }
        out.events = cassette.events.enumerated().map { index, event in
            var here: [String: String] = [:]
            return map(
                event, enter: { here = bySlot[RedactionSlot(event: index, part: $0)] ?? [:] },
                whole: { Placeholder.fill($0, here) }, inText: { Placeholder.fill($0, here) })
        }
        out.redactions = []
        return out
    }

    /// The placeholders found in slots their manifest entry does not list, with those slots:
    /// what `restore` leaves unfilled (`cassette lint` and `cassette serve` name them).
    public static func unlistedPlaceholders(in cassette: Cassette) -> [(placeholder: String, slot: RedactionSlot)] {
        let listed = Dictionary(cassette.redactions.map { ($0.placeholder, Set($0.slots)) }) { $0.union($1) }
        var out: [(String, RedactionSlot)] = []
        var seen: Set<Unlisted> = []
        func note(_ text: String, _ slot: RedactionSlot) {
            for name in Placeholder.names(in: text)
            where !(listed[name]?.contains(slot) ?? false) && seen.insert(Unlisted(name: name, slot: slot)).inserted {
                out.append((name, slot))
            }
        }
        if let seed = cassette.scenario.seed { note(seed, .scenario) }
        if let script = cassette.scenario.script {
            _ = mapScript(script, secretFields: []) { literal, _ in
                note(literal, .scenario)
                return nil
            }
        }
        for (index, event) in cassette.events.enumerated() where mentionsPlaceholder(event) {
            var slot = RedactionSlot(event: index, part: .whole)
            _ = map(
                event, enter: { slot = RedactionSlot(event: index, part: $0) },
                whole: {
                    note($0, slot)
                    return $0
                },
                inText: {
                    note($0, slot)
                    return $0
                })
        }
        return out
    }

    /// A placeholder in a slot, for the set of those already noted.
    private struct Unlisted: Hashable {
        var name: String
        var slot: RedactionSlot
    }

    /// Every placeholder name used in the cassette's events, in order of first appearance.
    public static func placeholderNames(in cassette: Cassette) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        func note(_ text: String) {
            for name in Placeholder.names(in: text) where seen.insert(name).inserted { names.append(name) }
        }
        if let seed = cassette.scenario.seed { note(seed) }
        if let script = cassette.scenario.script {
            _ = mapScript(script, secretFields: []) { literal, _ in
                note(literal)
                return nil
            }
        }
        for event in cassette.events where mentionsPlaceholder(event) {
            _ = map(
                event, enter: { _ in },
                whole: { text in
                    note(text)
                    return text
                },
                inText: { text in
                    note(text)
                    return text
                })
        }
        return names
    }

    /// Whether any text of the event holds `{{`: every text `map` hands on is one of these or a
    /// part of one (a JSON string's raw content, a URL's raw path segment or query value), so an
    /// event without it has no placeholder, and the search for them can skip it unparsed.
    static func mentionsPlaceholder(_ event: CassetteEvent) -> Bool {
        func holds(_ text: String) -> Bool { UTF8Search.contains("{{", in: text) }
        func holds(_ bytes: [UInt8]) -> Bool { UTF8Search.contains("{{", in: bytes) }
        switch event.payload {
        case .call(let call): return (call.arguments + call.outputs).contains { holds($0.value) }
        case .crypto(let step): return (step.inputs + step.outputs).contains { holds($0.value) }
        case .random(let draw): return holds(draw.hex)
        case .clock: return false
        case .http(let exchange):
            if holds(exchange.request.url) || holds(exchange.request.body)
                || exchange.request.headers.fields.contains(where: { holds($0.value) })
            {
                return true
            }
            guard let response = exchange.response else { return false }
            return holds(response.body) || response.headers.fields.contains { holds($0.value) }
        }
    }

    // MARK: - Collecting

    /// The secret values found, and the bodies that are JSON (so that `map` need not parse them again).
    private func collect(_ cassette: Cassette, _ wanted: Set<String>) -> (
        secrets: [(field: String, value: String)], jsonBodies: Set<RedactionSlot>
    ) {
        var found: [(String, String)] = []
        var jsonBodies: Set<RedactionSlot> = []
        func take(_ name: String, _ value: String) {
            guard wanted.contains(name.lowercased()), !value.isEmpty, Placeholder.whole(value) == nil else { return }
            found.append((fields.first { $0.lowercased() == name.lowercased() } ?? name, value))
        }
        if let script = cassette.scenario.script { Self.collectScript(script, take) }
        for (index, event) in cassette.events.enumerated() {
            switch event.payload {
            case .call(let call):
                for field in call.arguments + call.outputs { take(field.name, field.value) }
            case .crypto(let step):
                for field in step.inputs + step.outputs { take(field.name, field.value) }
            case .random(let draw):
                take(draw.purpose ?? Self.drawField, draw.hex)
            case .clock:
                break
            case .http(let exchange):
                for field in exchange.request.headers { take(field.name, field.value) }
                for (name, value) in URLText.queryItems(exchange.request.url) { take(name, value) }
                if Self.collectJSON(exchange.request.body, take) {
                    jsonBodies.insert(RedactionSlot(event: index, part: .request))
                }
                if let response = exchange.response {
                    for field in response.headers { take(field.name, field.value) }
                    if Self.collectJSON(response.body, take) {
                        jsonBodies.insert(RedactionSlot(event: index, part: .response))
                    }
                }
            }
        }
        return (found, jsonBodies)
    }

    /// Takes the raw content of string members of a JSON body; whether the body is JSON.
    @discardableResult
    private static func collectJSON(_ body: [UInt8], _ take: (String, String) -> Void) -> Bool {
        guard (try? JSONParser.parse(body, duplicateMembers: .keep)) != nil else { return false }
        var pendingKey: String?
        _ = JSONStringLiterals.rewrite(body) { raw, isKey in
            if isKey {
                pendingKey = raw
            } else if let key = pendingKey {
                take(key, raw)
                pendingKey = nil
            }
            return nil
        }
        return true
    }

    /// Takes the string and number members of a scenario script, at any depth.
    private static func collectScript(_ value: JSONValue, _ take: (String, String) -> Void) {
        switch value {
        case .array(let items):
            for item in items { collectScript(item, take) }
        case .object(let members):
            // A `capture` maps variables to output names: names, not values.
            for member in members where member.name != "capture" {
                switch member.value {
                // `$name` is a script variable, not a value.
                case .string(let text), .number(let text): if !text.hasPrefix("$") { take(member.name, text) }
                default: collectScript(member.value, take)
                }
            }
        default:
            break
        }
    }

    // MARK: - Mapping every text slot

    /// Applies `transform` to each string of a script, and to each number that is the value of a
    /// member named in `secretFields` (lowercased); `transform` gets the literal and whether it was
    /// a number, and returns the new string (nil: leave the value as it was).
    package static func mapScript(
        _ value: JSONValue, secretFields: Set<String>,
        _ transform: (_ literal: String, _ isNumber: Bool) -> String?
    ) -> JSONValue {
        func walk(_ value: JSONValue, secret: Bool) -> JSONValue {
            switch value {
            case .string(let text): return .string(transform(text, false) ?? text)
            case .number(let literal) where secret: return transform(literal, true).map(JSONValue.string) ?? value
            case .array(let items): return .array(items.map { walk($0, secret: false) })
            case .object(let members):
                return .object(
                    members.map {
                        JSONValue.Member($0.name, walk($0.value, secret: secretFields.contains($0.name.lowercased())))
                    })
            default: return value
            }
        }
        return walk(value, secret: false)
    }

    /// Applies `whole` to each whole-token slot and `inText` to non-JSON text bodies, calling
    /// `enter` with the part of the event (`RedactionSlot.Part`) before the values of each part.
    /// `isJSONBody` says whether the body of a part is JSON when the caller knows (else it is parsed).
    static func map(
        _ event: CassetteEvent, enter: (RedactionSlot.Part) -> Void, whole: (String) -> String,
        inText: (String) -> String, isJSONBody: ((RedactionSlot.Part) -> Bool)? = nil
    ) -> CassetteEvent {
        var event = event
        // A call or crypto value that is not a secret as a whole may hold one: string by string in
        // JSON text (a request body a step sends, a mailbox listing), else as in a text body.
        func field(_ value: String) -> String {
            let replaced = whole(value)
            guard replaced == value, value.utf8.count > 2 else { return replaced }
            let bytes = Array(value.utf8)
            if bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "["),
                (try? JSONParser.parse(bytes, duplicateMembers: .keep)) != nil
            {
                return String(
                    decoding: JSONStringLiterals.rewrite(bytes) { raw, isKey in
                        if isKey { return nil }
                        let replaced = whole(raw)
                        return replaced == raw ? nil : replaced
                    }, as: UTF8.self)
            }
            return inText(value)
        }
        func fields(_ list: [NamedField]) -> [NamedField] { list.map { NamedField($0.name, field($0.value)) } }
        func headers(_ list: HTTPHeadersValue) -> HTTPHeadersValue {
            HTTPHeadersValue(list.fields.map { .init(name: $0.name, value: whole($0.value)) })
        }
        func body(_ bytes: [UInt8], _ part: RedactionSlot.Part) -> [UInt8] {
            guard let text = String(validating: bytes, as: UTF8.self) else { return bytes }
            if isJSONBody?(part) ?? ((try? JSONParser.parse(bytes, duplicateMembers: .keep)) != nil) {
                return JSONStringLiterals.rewrite(bytes) { raw, isKey in
                    if isKey { return nil }
                    let replaced = whole(raw)
                    return replaced == raw ? nil : replaced
                }
            }
            if let name = Placeholder.whole(text) { return Array(whole(Placeholder.text(name)).utf8) }
            let replaced = whole(text)
            let result = replaced == text ? inText(text) : replaced
            // An unchanged body keeps its storage (a big cassette is not copied for nothing).
            return result.utf8.elementsEqual(bytes) ? bytes : Array(result.utf8)
        }
        switch event.payload {
        case .call(var call):
            enter(.whole)
            call.arguments = fields(call.arguments)
            call.outputs = fields(call.outputs)
            event.payload = .call(call)
        case .crypto(var step):
            enter(.whole)
            step.inputs = fields(step.inputs)
            step.outputs = fields(step.outputs)
            event.payload = .crypto(step)
        case .random(var draw):
            enter(.whole)
            draw.hex = whole(draw.hex)
            event.payload = .random(draw)
        case .clock:
            break
        case .http(var exchange):
            enter(.request)
            exchange.request.url = URLText.mapTokens(exchange.request.url, whole)
            exchange.request.headers = headers(exchange.request.headers)
            exchange.request.body = body(exchange.request.body, .request)
            if var response = exchange.response {
                enter(.response)
                response.headers = headers(response.headers)
                response.body = body(response.body, .response)
                exchange.response = response
            }
            event.payload = .http(exchange)
        }
        return event
    }
}
