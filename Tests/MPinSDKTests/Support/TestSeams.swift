import Foundation
import MPinSDK
import Synchronization
import TestSupport

extension FixedClock {
    /// 2016-10-11T12:00:00Z, day 17085, the time of the canned responses.
    init() { self.init(milliseconds: 1_476_187_200_000) }
}

/// Collects the observer's events.
final class EventLog: ClientObserver, Sendable {
    private let stored = Mutex<[ClientEvent]>([])

    func observe(_ event: ClientEvent) {
        stored.withLock { $0.append(event) }
    }

    var events: [ClientEvent] { stored.withLock { $0 } }

    /// One letter per event: c(all) r(esult) h(ttp) x (crypto) n (random) t (clock) o (note).
    var shape: String {
        events.map { event -> String in
            switch event {
            case .call: "c"
            case .result: "r"
            case .http: "h"
            case .crypto: "x"
            case .random: "n"
            case .clock: "t"
            case .note: "o"
            }
        }.joined()
    }

    var cryptoPrimitives: [String] {
        events.compactMap { if case .crypto(let step) = $0 { return step.primitive } else { return nil } }
    }

    var results: [ClientEvent.Result] {
        events.compactMap { if case .result(let result) = $0 { return result } else { return nil } }
    }
}
